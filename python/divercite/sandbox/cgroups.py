"""Control groups for a sandbox's processes, where the host lets this process make them.

Three of the kernel's controls hold what no signal or rlimit can:
  - the freezer: a frozen group's tasks do not run until it is thawed, whatever signals they
    send each other (a SIGSTOP can be undone by a SIGCONT from a sibling);
  - memory: a limit on every page the group's tasks are charged for, those no process maps
    included (a memfd, SysV shared memory, files on a tmpfs), which the kernel enforces by
    ending a task of the group (its OOM killer, confined to the group), and counts;
  - pids: a limit on the group's tasks.
Each comes from cgroup v2 where this process's own group in the unified hierarchy lets it
make children (root; a systemd unit or scope with Delegate=yes), and otherwise from the v1
hierarchy of that controller (mounted writable: root on a v1 or hybrid host). The v2
freezer needs no controller; v2's memory and pids need theirs enabled for the children.
`detect()` says what this host gives; a control it lacks has a fallback in the sandbox
(SIGSTOP and a seccomp filter refusing SIGCONT; the watchdog's count of memory and tasks).
DIVERCITE_SANDBOX_CGROUPS=off makes none be used (the fallbacks alone).
"""

import dataclasses
import errno
import itertools
import os
import signal
import time
from typing import Optional

SWITCH = "DIVERCITE_SANDBOX_CGROUPS"
GROUP_PREFIX = "divercite-sandbox-"
# How long a freeze may take to reach every task (a task in the kernel finishes its call
# first), and a group's removal to wait for its tasks' end.
SETTLE_SECONDS = 2.0
# Attaches the shell to the groups named before '--' (their cgroup.procs files), then
# executes the rest: every process the sandbox starts is in the groups from its first
# instruction. A write refused (a group removed meanwhile) stops the start.
ATTACH = ('while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; '
          'exec "$@"')


@dataclasses.dataclass(frozen=True)
class Hierarchy:
    version: int  # 1 or 2
    folder: str  # this process's own group in it, where the sandboxes' groups are made

    def describe(self):
        return f"cgroup v{self.version} ({self.folder})"


@dataclasses.dataclass(frozen=True)
class HostGroups:
    """The hierarchy each control comes from on this host, None where it has none."""

    freezer: Optional[Hierarchy] = None
    memory: Optional[Hierarchy] = None
    pids: Optional[Hierarchy] = None

    def any(self):
        return any((self.freezer, self.memory, self.pids))

    def describe(self):
        """One line a person can check the host against (docs/course.md's words)."""
        if os.environ.get(SWITCH) == "off":
            return f"no cgroups ({SWITCH}=off): the fallbacks alone"
        parts = []
        for name, hierarchy in (("freezer", self.freezer), ("memory", self.memory),
                                ("pids", self.pids)):
            parts.append(f"{name}: " + (hierarchy.describe() if hierarchy else "fallback"))
        return "; ".join(parts)


def _mounts():
    """(mount point, root within the hierarchy, type, super options) of the cgroup mounts."""
    found = []
    with open("/proc/self/mountinfo") as mountinfo:
        for line in mountinfo:
            before, _, after = line.partition(" - ")
            fields, rest = before.split(), after.split()
            if len(fields) >= 5 and len(rest) >= 3 and rest[0] in ("cgroup", "cgroup2"):
                found.append((fields[4], fields[3], rest[0], rest[2].split(",")))
    return found


def _own_groups():
    """{controller or '' for v2: this process's path in that hierarchy}."""
    groups = {}
    with open("/proc/self/cgroup") as cgroup:
        for line in cgroup:
            parts = line.rstrip("\n").split(":", 2)
            if len(parts) == 3:
                for controller in parts[1].split(",") if parts[1] else [""]:
                    groups[controller] = parts[2]
    return groups


def _folder(mount_point, mount_root, path):
    relative = os.path.relpath(path, mount_root) if path.startswith(mount_root) else None
    if relative is None or relative.startswith(".."):
        return None  # our group is not visible through this mount (another namespace's)
    return os.path.normpath(os.path.join(mount_point, relative))


def _read(path):
    with open(path) as file:
        return file.read()


def _write(path, text):
    with open(path, "w") as file:
        file.write(text)


def _makes_children(folder, probe_file):
    """Whether a group can be made in `folder`, holding `probe_file` (a control's file)."""
    probe = os.path.join(folder, f"{GROUP_PREFIX}probe-{os.getpid()}")
    try:
        os.mkdir(probe)
    except OSError:
        return False
    try:
        return os.path.exists(os.path.join(probe, probe_file))
    finally:
        try:
            os.rmdir(probe)
        except OSError:
            pass


def _v2_controller(folder, controller):
    """Whether the v2 group `folder` gives its children `controller` (enabling it if it may:
    refused while the group itself holds processes, unless it is the root)."""
    try:
        if controller not in _read(os.path.join(folder, "cgroup.controllers")).split():
            return False
        enabled = os.path.join(folder, "cgroup.subtree_control")
        if controller not in _read(enabled).split():
            _write(enabled, f"+{controller}")
        return True
    except OSError:
        return False


_detected = None


def detect():
    """The HostGroups of this host for this process (found once)."""
    global _detected
    if _detected is not None:
        return _detected
    if os.environ.get(SWITCH) == "off":
        _detected = HostGroups()
        return _detected
    try:
        mounts, own = _mounts(), _own_groups()
    except OSError:
        _detected = HostGroups()
        return _detected
    controls = {}
    for mount_point, root, kind, options in mounts:
        if kind == "cgroup2" and "" in own:
            folder = _folder(mount_point, root, own[""])
            if folder is None or not _makes_children(folder, "cgroup.freeze"):
                continue
            hierarchy = Hierarchy(2, folder)
            controls.setdefault("freezer", hierarchy)
            for controller in ("memory", "pids"):
                if _v2_controller(folder, controller):
                    controls[controller] = hierarchy
    for mount_point, root, kind, options in mounts:
        if kind != "cgroup":
            continue
        for controller, probe in (("freezer", "freezer.state"),
                                  ("memory", "memory.limit_in_bytes"), ("pids", "pids.max")):
            if controller in options and controller not in controls and controller in own:
                folder = _folder(mount_point, root, own[controller])
                if folder is not None and _makes_children(folder, probe):
                    controls[controller] = Hierarchy(1, folder)
    _detected = HostGroups(**controls)
    _remove_abandoned(_detected)
    return _detected


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def _remove_abandoned(host):
    """Removes the empty groups of owners that have ended (a bridge killed before its close)."""
    for folder in {h.folder for h in (host.freezer, host.memory, host.pids) if h}:
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            owner = name[len(GROUP_PREFIX):].split("-")[0]
            if name.startswith(GROUP_PREFIX) and owner.isdigit() and not _alive(int(owner)):
                try:
                    os.rmdir(os.path.join(folder, name))
                except OSError:
                    pass  # still holds tasks, or not ours


_numbers = itertools.count(1)


def owner_prefix():
    """The start of the names of one owner's groups (a box.Sandbox's): this process's id, then
    a number of its own, so that one owner's cleaner never touches another's groups."""
    return f"{GROUP_PREFIX}{os.getpid()}-{next(_numbers)}-"


class Group:
    """The groups of one sandboxed process tree, one in each hierarchy the host gives, named
    after their owner (`prefix`, from owner_prefix)."""

    def __init__(self, host, prefix, memory_mb, tasks):
        self.host = host
        self.name = f"{prefix}{next(_numbers)}"
        self.folders = {}  # hierarchy's folder -> this group's folder in it
        try:
            for hierarchy in (host.memory, host.pids, host.freezer):
                if hierarchy is not None and hierarchy.folder not in self.folders:
                    folder = os.path.join(hierarchy.folder, self.name)
                    os.mkdir(folder)
                    self.folders[hierarchy.folder] = folder
            if host.memory is not None:
                self._limit_memory(memory_mb << 20)
            if host.pids is not None:
                _write(self._file(host.pids, "pids.max"), str(tasks))
        except OSError:
            self.remove()
            raise

    @classmethod
    def existing(cls, host, name):
        """The group `name` made earlier (by another process: the cleaner's view)."""
        group = cls.__new__(cls)
        group.host, group.name = host, name
        group.folders = {}
        for hierarchy in (host.memory, host.pids, host.freezer):
            folder = os.path.join(hierarchy.folder, name) if hierarchy else None
            if folder is not None and os.path.isdir(folder):
                group.folders[hierarchy.folder] = folder
        return group

    def _file(self, hierarchy, name):
        if hierarchy.folder not in self.folders:
            raise FileNotFoundError(f"{self.name} has no group in {hierarchy.folder}")
        return os.path.join(self.folders[hierarchy.folder], name)

    def _limit_memory(self, limit):
        memory = self.host.memory
        if memory.version == 2:
            _write(self._file(memory, "memory.max"), str(limit))
            optional = (("memory.swap.max", "0"), ("memory.oom.group", "1"))
        else:
            _write(self._file(memory, "memory.limit_in_bytes"), str(limit))
            optional = (("memory.memsw.limit_in_bytes", str(limit)),)
        for name, value in optional:  # absent where the kernel counts no swap
            try:
                _write(self._file(memory, name), value)
            except OSError:
                pass

    def attach_prefix(self):
        """The command words that start a process inside the groups: the freezer's last, so
        that a process started into a frozen group has joined the others first."""
        order = [h for h in (self.host.memory, self.host.pids, self.host.freezer) if h]
        files = []
        for hierarchy in order:
            path = self._file(hierarchy, "cgroup.procs")
            if path not in files:
                files.append(path)
        return ["/bin/sh", "-c", ATTACH, "sh", *files, "--"]

    # -- the freezer

    def freeze(self):
        """Freezes every task of the group; True once the kernel says all are frozen."""
        return self._set_frozen(True)

    def thaw(self):
        return self._set_frozen(False)

    def _set_frozen(self, frozen):
        freezer = self.host.freezer
        if freezer.version == 2:
            control, value = self._file(freezer, "cgroup.freeze"), "1" if frozen else "0"
            events = self._file(freezer, "cgroup.events")

            def settled():
                return f"frozen {value}" in _read(events)
        else:
            control = self._file(freezer, "freezer.state")
            value = "FROZEN" if frozen else "THAWED"

            def settled():
                return _read(control).strip() == value
        try:
            _write(control, value)
            deadline = time.monotonic() + SETTLE_SECONDS
            while not settled():
                if time.monotonic() > deadline:
                    return False
                time.sleep(0.001)
        except OSError:
            return False
        return True

    # -- what the kernel counted

    def _counted(self, hierarchy, name, wanted):
        """Whether the count `wanted` of the group's file `name` ("key count" lines) is above
        zero."""
        try:
            for line in _read(self._file(hierarchy, name)).splitlines():
                key, _, count = line.partition(" ")
                if key == wanted and int(count) > 0:
                    return True
        except (OSError, ValueError):
            pass
        return False

    def memory_killed(self):
        """Whether the kernel ended a task of the group for its memory limit."""
        memory = self.host.memory
        name = "memory.events" if memory.version == 2 else "memory.oom_control"
        return self._counted(memory, name, "oom_kill")

    def memory_peak_mb(self):
        memory = self.host.memory
        name = "memory.peak" if memory.version == 2 else "memory.max_usage_in_bytes"
        try:
            return int(_read(self._file(memory, name))) >> 20
        except (OSError, ValueError):
            return None

    def tasks_refused(self):
        """Whether the pids limit refused a fork or a thread."""
        return self._counted(self.host.pids, "pids.events", "max")

    # -- the end

    def pids(self):
        found = set()
        for folder in self.folders.values():
            try:
                found |= {int(pid) for pid in _read(os.path.join(folder, "cgroup.procs")).split()}
            except (OSError, ValueError):
                continue
        return found

    def kill(self):
        """SIGKILL to every task of the group; then thawed, since a task frozen by the v1
        freezer ends only once it runs again."""
        freezer = self.host.freezer
        if freezer is not None and freezer.version == 2:
            try:
                _write(self._file(freezer, "cgroup.kill"), "1")
            except OSError:
                pass  # a kernel before 5.14: one by one, below
        for pid in self.pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if freezer is not None and freezer.folder in self.folders:
            self.thaw()

    def remove(self):
        """Removes the groups once their tasks have ended (waits a moment for them)."""
        deadline = time.monotonic() + SETTLE_SECONDS
        for folder in list(self.folders.values()):
            while True:
                try:
                    os.rmdir(folder)
                    break
                except FileNotFoundError:
                    break
                except OSError as error:
                    if error.errno != errno.EBUSY or time.monotonic() > deadline:
                        break  # left for _remove_abandoned, once this process has ended
                    time.sleep(0.01)
        self.folders = {}


def release_groups_of(prefix):
    """Ends the tasks of every group whose name starts with an owner's `prefix`, and removes
    the groups: for the cleaner, once the owner has ended (its sandboxes frozen, maybe, and
    their parent gone)."""
    host = detect()
    names = set()
    for hierarchy in (host.freezer, host.memory, host.pids):
        if hierarchy is not None:
            try:
                names |= {n for n in os.listdir(hierarchy.folder) if n.startswith(prefix)}
            except OSError:
                continue
    for name in names:
        group = Group.existing(host, name)
        group.kill()
        group.remove()
