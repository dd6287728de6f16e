"""The sandbox's seccomp filter: the system calls an untrusted process may make, deny by default.

Every call not named here is refused with EPERM, as Docker's default profile refuses it, and
`clone3` with ENOSYS, so that glibc falls back to `clone`, whose flags the filter can read.
The allow-list is Docker's unconditional one (moby/profiles, seccomp/default.json) less what a
sandboxed agent must not do: the kernel's own interfaces (io_uring, bpf, perf, keyrings,
mounts, namespaces, modules, clocks), other processes' memory (ptrace), and anything that could
undo the runner's stop (SIGSTOP while the opponent thinks) by sending SIGCONT, or, on a host
without a memory cgroup, keep memory that no process maps (`shared_memory=False`).

Some calls are allowed with their arguments checked, each signal or flag masked to the 32 bits
the kernel reads (the upper half of a register is the caller's to fill):
  - clone: without any namespace flag, and without SIGCONT as the child's exit signal;
  - kill, tkill, tgkill, rt_sigqueueinfo, rt_tgsigqueueinfo, pidfd_send_signal: any signal but
    SIGCONT;
  - prctl: any option but PR_SET_PDEATHSIG with SIGCONT; fcntl: any command but F_SETSIG
    with SIGCONT (the signal that async I/O on a descriptor sends);
  - socket: the families of the sandbox's own loopback and local sockets (unix, IPv4, IPv6,
    netlink for the routes getaddrinfo reads).

Names are resolved for the running architecture by libseccomp; those it does not know there
(an older libseccomp, another architecture's calls) are skipped, so the module serves x86-64
and arm64 alike. Only the native architecture is allowed: a 32-bit or x32 call is refused.
"""

import errno
import signal
import sys
import tempfile

from .limits import SandboxError

INSTALL_HINT = "apt-get install python3-seccomp"

# Allowed unconditionally, grouped by what needs them.
ALLOWED = (
    # Files and descriptors: the interpreter reads its modules, agents read and write files.
    "read", "write", "readv", "writev", "pread64", "pwrite64", "preadv", "preadv2", "pwritev",
    "pwritev2", "open", "openat", "openat2", "creat", "close", "close_range", "dup", "dup2",
    "dup3", "lseek", "ioctl", "flock", "fsync", "fdatasync", "sync", "syncfs",
    "sync_file_range", "ftruncate", "truncate", "fallocate", "fadvise64", "readahead",
    "sendfile", "copy_file_range", "splice", "tee", "vmsplice",
    # Files' metadata and folders (os.stat, os.walk, shutil, tempfile).
    "stat", "fstat", "lstat", "newfstatat", "statx", "statfs", "fstatfs", "access",
    "faccessat", "faccessat2", "getcwd", "chdir", "fchdir", "getdents", "getdents64", "mkdir",
    "mkdirat", "rmdir", "rename", "renameat", "renameat2", "link", "linkat", "symlink",
    "symlinkat", "unlink", "unlinkat", "readlink", "readlinkat", "chmod", "fchmod", "fchmodat",
    "fchmodat2", "chown", "fchown", "lchown", "fchownat", "umask", "utime", "utimes",
    "utimensat", "futimesat", "mknod", "mknodat",
    # Extended attributes (shutil.copystat copies them).
    "getxattr", "lgetxattr", "fgetxattr", "listxattr", "llistxattr", "flistxattr", "setxattr",
    "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr", "getxattrat",
    "listxattrat", "setxattrat", "removexattrat",
    # Watching files (inotify; fanotify_mark is useless without the refused fanotify_init).
    "inotify_init", "inotify_init1", "inotify_add_watch", "inotify_rm_watch", "fanotify_mark",
    # Memory: malloc, numpy's arrays, mmap, the loader's mappings.
    "brk", "mmap", "munmap", "mremap", "mprotect", "madvise", "mincore", "msync", "mlock",
    "mlock2", "mlockall", "munlock", "munlockall", "remap_file_pages", "membarrier",
    "pkey_alloc", "pkey_free", "pkey_mprotect", "map_shadow_stack", "mseal", "cachestat",
    # Processes: fork, subprocess (vfork), multiprocessing, exec, wait, the loader's start.
    "fork", "vfork", "execve", "execveat", "exit", "exit_group", "wait4", "waitid",
    "set_tid_address", "set_robust_list", "get_robust_list", "rseq", "arch_prctl",
    "pidfd_open", "process_mrelease", "uretprobe",
    # Process ids, groups and sessions (os.getpid, os.setsid, start_new_session).
    "getpid", "getppid", "gettid", "getpgid", "setpgid", "getpgrp", "getsid", "setsid",
    # Identity, inside the sandbox's user namespace (os.getuid, the user nobody).
    "getuid", "geteuid", "getgid", "getegid", "getresuid", "getresgid", "getgroups", "setuid",
    "setgid", "setreuid", "setregid", "setresuid", "setresgid", "setfsuid", "setfsgid",
    "setgroups", "capget", "capset",
    # Limits, usage and scheduling (resource, os.sched_getaffinity, os.nice, OpenBLAS's
    # threads); sched_setaffinity is refused: the sandbox pins each agent to its cores.
    "getrlimit", "setrlimit", "prlimit64", "getrusage", "times", "getpriority", "setpriority",
    "ioprio_get", "ioprio_set", "sched_getaffinity", "sched_yield", "sched_getparam",
    "sched_setparam", "sched_getscheduler", "sched_setscheduler", "sched_getattr",
    "sched_setattr", "sched_get_priority_max", "sched_get_priority_min",
    "sched_rr_get_interval",
    # Threads' locks and waits (threading, OpenBLAS, queues).
    "futex", "futex_waitv", "futex_wait", "futex_wake", "futex_requeue",
    # Signal handling (the signals sent are checked below).
    "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "rt_sigpending", "rt_sigsuspend",
    "rt_sigtimedwait", "sigaltstack", "signalfd", "signalfd4", "pause", "restart_syscall",
    # Clocks and sleeps (time, asyncio's loop, signal.setitimer, timerfd).
    "clock_gettime", "clock_getres", "clock_nanosleep", "nanosleep", "gettimeofday", "time",
    "getitimer", "setitimer", "alarm", "timerfd_create", "timerfd_settime", "timerfd_gettime",
    "timer_settime", "timer_gettime", "timer_getoverrun", "timer_delete",
    # Waiting on descriptors (selectors, asyncio) and pipes.
    "poll", "ppoll", "select", "pselect6", "epoll_create", "epoll_create1", "epoll_ctl",
    "epoll_wait", "epoll_pwait", "epoll_pwait2", "epoll_ctl_old", "epoll_wait_old", "eventfd",
    "eventfd2", "pipe", "pipe2",
    # Sockets on the sandbox's own loopback (the families are checked below); socketpair
    # (multiprocessing's connections).
    "socketpair", "bind", "listen", "accept", "accept4", "connect", "getsockname",
    "getpeername", "getsockopt", "setsockopt", "sendto", "recvfrom", "sendmsg", "recvmsg",
    "sendmmsg", "recvmmsg", "shutdown",
    # The system's description and randomness (platform, os.cpu_count, os.urandom).
    "uname", "sysinfo", "getcpu", "getrandom",
    # Linux's native asynchronous I/O (not io_uring).
    "io_setup", "io_destroy", "io_submit", "io_cancel", "io_getevents", "io_pgetevents",
    # Semaphores (multiprocessing's locks are POSIX ones, on /dev/shm; SysV ones too) and
    # POSIX message queues, bounded by RLIMIT_MSGQUEUE (mq_notify refused: it sends a signal).
    "semget", "semop", "semtimedop", "semctl", "mq_open", "mq_unlink", "mq_timedsend",
    "mq_timedreceive", "mq_getsetattr",
    # A process restricting itself further (filters stack: ours still applies).
    "seccomp", "landlock_create_ruleset", "landlock_add_rule", "landlock_restrict_self",
    # The mount table of the sandbox's own namespace (what /proc/self/mountinfo shows).
    "listmount", "statmount",
)

# Memory that no process maps, which a host without a memory cgroup would not count: allowed
# only with shared_memory=True (memfd, SysV shared memory and SysV message queues).
SHARED_MEMORY = ("memfd_create", "shmget", "shmat", "shmctl", "shmdt", "msgget", "msgsnd",
                 "msgrcv", "msgctl")

# Never allowed, whatever an agent asks; tests/seahorse/test_sandbox_syscalls.py checks that
# none of them is in the filter.
REFUSED = (
    # The kernel's own interfaces, often the way out of a sandbox.
    "io_uring_setup", "io_uring_enter", "io_uring_register", "bpf", "userfaultfd",
    "perf_event_open", "keyctl", "add_key", "request_key", "lookup_dcookie", "syslog",
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module", "reboot",
    "swapon", "swapoff", "acct", "quotactl", "quotactl_fd", "iopl", "ioperm", "modify_ldt",
    "vhangup", "memfd_secret", "personality",
    # Other processes' memory and descriptors.
    "ptrace", "process_vm_readv", "process_vm_writev", "process_madvise", "pidfd_getfd",
    "kcmp",
    # Mounts and namespaces.
    "mount", "umount", "umount2", "mount_setattr", "move_mount", "open_tree", "fsopen",
    "fsconfig", "fsmount", "fspick", "pivot_root", "chroot", "unshare", "setns",
    "open_by_handle_at", "name_to_handle_at", "fanotify_init",
    # The machine's clocks.
    "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
    # Another agent's cores (the sandbox pins each agent to its own).
    "sched_setaffinity",
    # NUMA placement (Docker wants CAP_SYS_NICE for it).
    "mbind", "get_mempolicy", "set_mempolicy", "set_mempolicy_home_node",
    # A signal the filter cannot read, which a stopped process could have sent to itself as
    # SIGCONT: a POSIX timer's (timer_create), a message queue's notification (mq_notify).
    "timer_create", "mq_notify",
    # Multiplexers of 32-bit systems, whose arguments the checks below cannot see.
    "socketcall", "ipc",
)

# Namespace flags of clone (linux/sched.h, the same on every architecture). CLONE_NEWTIME
# lies in the exit signal's byte, which clone() strips, so it only forbids exit signals above
# 127, which are not signals.
CLONE_NEWTIME = 0x00000080
CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
NAMESPACE_FLAGS = (CLONE_NEWTIME | CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC |
                   CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET)
# The bits of a signal number (1 to 64; 0 probes): the exit signal's in clone's flags.
SIGNAL_BITS = 0x7F
# The 32 bits the kernel reads of an int argument.
INT_BITS = 0xFFFFFFFF
# The argument that carries the signal, for each call that sends one.
SIGNAL_ARGUMENT = {"kill": 1, "tkill": 1, "tgkill": 2, "rt_sigqueueinfo": 1,
                   "rt_tgsigqueueinfo": 2, "pidfd_send_signal": 1}
# (call, the argument holding the command, the command, the argument holding its signal).
SIGNAL_COMMANDS = (("prctl", 0, 1, 1),   # PR_SET_PDEATHSIG
                   ("fcntl", 1, 10, 2))  # F_SETSIG
# socket's families: AF_UNIX, AF_INET, AF_INET6, AF_NETLINK.
SOCKET_FAMILIES = (1, 2, 10, 16)


def all_but(value, field, zero=0):
    """(mask, datum) pairs for masked comparisons that together match every number whose
    `field` bits are not `value` and whose `zero` bits are clear: for each bit of the field,
    from the highest, those agreeing with `value` above it and differing there."""
    pairs = []
    for bit in reversed(range(field.bit_length())):
        mask = field & ~((1 << bit) - 1)
        pairs.append((zero | mask, (value ^ (1 << bit)) & mask))
    return pairs


def syscall_filter(*, shared_memory):
    """The filter as libseccomp's SyscallFilter (for its pseudo code, export_pfc)."""
    try:
        import seccomp
    except ImportError:
        raise SandboxError("the sandbox needs libseccomp's Python module (its seccomp "
                           f"filter), which {sys.executable} cannot import: {INSTALL_HINT}")

    rules = seccomp.SyscallFilter(defaction=seccomp.ERRNO(errno.EPERM))
    # A binary tree of the call numbers, not a list walked on every call.
    rules.set_attr(seccomp.Attr.CTL_OPTIMIZE, 2)

    def add(action, name, *comparisons):
        if seccomp.resolve_syscall(seccomp.Arch.NATIVE, name) >= 0:
            rules.add_rule(action, name, *comparisons)

    def masked(argument, mask, datum):
        return seccomp.Arg(argument, seccomp.MASKED_EQ, mask, datum)

    for name in ALLOWED + (SHARED_MEMORY if shared_memory else ()):
        add(seccomp.ALLOW, name)
    add(seccomp.ERRNO(errno.ENOSYS), "clone3")
    for mask, datum in all_but(signal.SIGCONT, SIGNAL_BITS, NAMESPACE_FLAGS):
        add(seccomp.ALLOW, "clone", masked(0, mask, datum))
    signal_other = all_but(signal.SIGCONT, SIGNAL_BITS, INT_BITS & ~SIGNAL_BITS)
    for name, argument in SIGNAL_ARGUMENT.items():
        for mask, datum in signal_other:
            add(seccomp.ALLOW, name, masked(argument, mask, datum))
    for name, command_argument, command, signal_argument in SIGNAL_COMMANDS:
        for mask, datum in all_but(command, INT_BITS):
            add(seccomp.ALLOW, name, masked(command_argument, mask, datum))
        for mask, datum in signal_other:
            add(seccomp.ALLOW, name, masked(command_argument, INT_BITS, command),
                masked(signal_argument, mask, datum))
    for family in SOCKET_FAMILIES:
        add(seccomp.ALLOW, "socket", masked(0, INT_BITS, family))
    return rules


def compiled_filter(*, shared_memory: bool) -> bytes:
    """The BPF program bubblewrap loads (--seccomp FD)."""
    with tempfile.TemporaryFile() as compiled:
        syscall_filter(shared_memory=shared_memory).export_bpf(compiled)
        compiled.seek(0)
        return compiled.read()
