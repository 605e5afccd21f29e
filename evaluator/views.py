from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from .models import Game
from .selectors import game_detail, game_library


@require_GET
def games(request):
    return render(request, "evaluator/games.html", {"games": game_library()})


@require_GET
def game(request, slug):
    try:
        found = game_detail(slug)
    except Game.DoesNotExist:
        raise Http404(f"No game {slug!r}") from None
    manifest = found.manifest
    context = {
        "game": found,
        "keys": manifest["keys"], "pointer": manifest["pointer"], "viewport": manifest["viewport"],
        "semantic_actions": manifest["semantic_actions"],
        "state_fields": sorted(manifest["state_fields"].items()),
    }
    return render(request, "evaluator/game.html", context)


@require_GET
def game_frame(request, slug):
    frame = Game.objects.filter(slug=slug).values_list("frame_png", flat=True).first()
    if not frame:
        raise Http404(f"No frame captured for {slug!r}: run load_games")
    response = HttpResponse(bytes(frame), content_type="image/png")
    response["Cache-Control"] = "public, max-age=300"
    return response
