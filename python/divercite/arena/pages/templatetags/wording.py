"""The arena's wording (divercite.arena.wording) as template filters, so that a page writes a
count and a measure as the messages do:

    {% load wording %}
    {{ games|counted:"game" }}      1 game, 2 games
    {{ tc|seconds }}                900 s, 0.1 s
    {{ move.loss|points }} points   1.50 points (the loss in centipoints)
"""

from django import template

from ... import wording

register = template.Library()


@register.filter
def counted(count, noun):
    """`count` with `noun`, in the plural unless it is one; `noun` may be "singular,plural"
    where the plural is not the noun and an s ("entry,entries")."""
    singular, _, plural = str(noun).partition(",")
    return wording.counted(int(count), singular, plural or None)


@register.filter
def seconds(value):
    return wording.seconds(float(value))


@register.filter
def points(centipoints):
    return wording.points(float(centipoints))


@register.filter
def duration(seconds):
    """A time to wait or spent, as people say it: 41 s, 6 min 13 s."""
    return wording.duration(float(seconds) * 1000)
