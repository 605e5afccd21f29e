import re

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.views.decorators.http import require_GET

from sandbox.protocol import describe_action

from .models import Game, RegisteredRom, TaskSet
from .rom_capture import PERMISSION
from .selectors import game_detail, game_library


@require_GET
def games(request):
    return render(request, "catalogue/games.html", {"games": game_library()})


@require_GET
def game(request, slug):
    try:
        found = game_detail(slug)
    except Game.DoesNotExist:
        raise Http404(f"No game {slug!r}") from None
    manifest = found.manifest
    tasks = list(found.current_tasks)
    intro, own, outro = shared_sentences([task.instruction for task in tasks])
    context = {
        "game": found, "tasks": list(zip(tasks, own)), "intro": intro, "outro": outro,
        "ranked": set(TaskSet.objects.exclude(status=TaskSet.Status.DRAFT).filter(tasks__in=tasks)
                      .values_list("tasks__pk", flat=True)),
        "keys": manifest["keys"], "pointer": manifest["pointer"], "viewport": manifest["viewport"],
        "semantic_actions": manifest["semantic_actions"],
        "state_fields": sorted(manifest["state_fields"].items()),
    }
    return render(request, "catalogue/game.html", context)


SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def shared_sentences(instructions):
    """(opening, [each instruction's own part], closing): the sentences every instruction of two or more starts
    and ends with, so that a game page says how the game plays once and each task what it asks."""
    split = [SENTENCE_END.split(text) for text in instructions]
    if len(split) < 2:
        return "", list(instructions), ""
    shortest = min(len(sentences) for sentences in split)
    head = 0
    while head < shortest - 1 and len({tuple(s[:head + 1]) for s in split}) == 1:
        head += 1
    tail = 0
    while head + tail < shortest - 1 and len({tuple(s[len(s) - tail - 1:]) for s in split}) == 1:
        tail += 1
    return (" ".join(split[0][:head]), [" ".join(s[head:len(s) - tail]) for s in split],
            " ".join(split[0][len(split[0]) - tail:]) if tail else "")


@require_GET
def game_frame(request, slug):
    found = list(Game.objects.filter(slug=slug).values_list("frame_png", flat=True))
    if not found:
        raise Http404(f"No game {slug!r}")
    if not found[0]:  # a first start's worker is still capturing it: a placeholder, asked for again next time
        response = redirect(static("img/frame-pending.svg"))
        response["Cache-Control"] = "no-store"
        return response
    response = HttpResponse(bytes(found[0]), content_type="image/png")
    response["Cache-Control"] = "public, max-age=300"
    return response


@login_required
@require_GET
def rom_capture(request, pk):
    """Play a registered ROM from power-on to its start, then save that moment as its start state."""
    if not request.user.has_perm(PERMISSION):
        raise PermissionDenied("maintainers only")
    rom = get_object_or_404(RegisteredRom, pk=pk)
    return render(request, "catalogue/rom_capture.html", {"rom": rom, "keys": rom.keys or [],
                                                          "actions": [describe_action(a) for a in rom.start_actions or []]})
