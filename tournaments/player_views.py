"""Players acting for themselves: invitations, their own page and profile, asking to enter
a tournament, checking in from the phone; and the director's side of each (the cards to
print, the requests to answer, the poster at the door).

Each view parses the request, asks the policy, calls one service, renders.
"""

from __future__ import annotations

import math
from typing import TypedDict

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.core.exceptions import ValidationError
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from club.forms import AccountForm, ProfileForm, SignUpForm, row_id
from club.models import Invitation, Player
from club.policy import (
    can_ask_to_enter,
    can_direct,
    can_invite,
    directs,
    own_player,
    require,
    sign_in_required,
)
from club.services import (
    invitation_accept,
    invitation_issue,
    invitation_link_refusal,
    invitation_refusal,
    invitation_revoke,
    invitations_issue,
    player_update,
)
from club.throttling import NewAccountsRate
from matches.notify import site_link

from .forms import OpenEntryForm
from .models import Entry, EntryRequest, Event, Tournament
from .queries.players import player_home
from .services.entries import entry_check_in
from .services.requests import entry_request_create, entry_request_decide, entry_request_sign_up
from .services.tournaments import tournament_open_entry_set

# a new account signs in at once; axes' backend only answers sign-in forms
BACKEND = "django.contrib.auth.backends.ModelBackend"


def _link(request: HttpRequest, path: str) -> str:
    """The address a phone opens from a QR code or a printed card: the whole URL, at SITE_URL
    when it is set (the venue's LAN address under `make venue`: the director's own browser
    may be at 127.0.0.1, which no phone reaches), else where this page was asked at."""
    if settings.SITE_URL:
        return site_link(path)
    return request.build_absolute_uri(path)


def _open_invitation(player: Player) -> Invitation | None:
    found = [i for i in player.invitations.all() if i.state == "open"]
    return found[0] if found else None


# --- the player's own pages --------------------------------------------------------------


@sign_in_required
def me(request: HttpRequest) -> HttpResponse:
    """The player's home: next match, matches in play, results, ratings, entries."""
    player = own_player(request.user)
    if player is None:
        return render(request, "me_unlinked.html")
    return render(request, "me.html", {"home": player_home(player=player)})


@sign_in_required
@require_http_methods(["GET", "POST"])
def my_profile(request: HttpRequest) -> HttpResponse:
    """The player's own name, club, email and phone, changed through the audited service."""
    player = own_player(request.user)
    if player is None:
        return render(request, "me_unlinked.html")
    form = ProfileForm(request.POST or None, instance=Player.objects.get(pk=player.pk))
    if request.method == "POST" and form.is_valid():
        try:
            player_update(player=player, user=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Your details are saved."))
            return redirect("me")
    status = 400 if form.errors else 200
    return render(request, "me_profile.html", {"form": form, "player": player}, status=status)


# --- invitations ---------------------------------------------------------------------------


class _Acceptance(TypedDict, total=False):
    """What :func:`club.services.invitation_accept` is told besides the token: a new
    account's username and password, or a signed-in person's confirmed identity."""

    username: str
    password: str
    confirmed: bool


def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """A player's personal link: make an account (or link the one signed in), then sign in."""
    found = Invitation.objects.select_related("player").filter(token=token).first()
    refusal = invitation_refusal(found)
    if refusal is None and found is not None and found.player.user_id is not None:
        refusal = ValidationError(
            _("%(name)s already has an account: they sign in with it.")
            % {"name": found.player.name}
        )
    if refusal is not None:
        status = 404 if found is None else 410
        return render(request, "invitation.html", {"refusal": refusal.messages[0]}, status=status)
    assert found is not None, "invitation_refusal refuses a token not found"
    signed_in = request.user.is_authenticated
    form = None if signed_in else AccountForm(request.POST or None)
    context: dict[str, object] = {"invitation": found, "form": form}
    if signed_in:
        try:  # refused whatever they answer: linked already, or directing the player's event
            invitation_link_refusal(account=request.user, player=found.player, confirmed=True)
        except ValidationError as error:
            context["refusal"] = error.messages[0]
            return render(request, "invitation.html", context, status=409)
        context["ask_identity"] = directs(request.user)
    if request.method == "POST" and (form is None or form.is_valid()):  # no form: signed in
        details: _Acceptance = {"confirmed": request.POST.get("identity") == "yes"}
        if form is not None:
            details = {
                "username": form.cleaned_data["username"],
                "password": form.cleaned_data["password1"],
            }
        try:
            player, account = invitation_accept(token=token, user=request.user, **details)
        except ValidationError as error:
            if form is None:
                said = "identity_error" if error.code == "confirm_identity" else "refusal"
                context[said] = error.messages[0]
                return render(request, "invitation.html", context, status=409)
            form.add_error(None, error)
        else:
            if not signed_in:
                login(request, account, backend=BACKEND)
            messages.success(
                request, _("Welcome, %(name)s: this is your page.") % {"name": player.name}
            )
            return redirect("me")
    status = 400 if form is not None and form.errors else 200
    return render(request, "invitation.html", context, status=status)


def _card(request: HttpRequest, player: Player, invitation: Invitation | None) -> dict[str, object]:
    link = _link(request, invitation.get_absolute_url()) if invitation else ""
    return {"player": player, "invitation": invitation, "link": link}


@sign_in_required
@require_http_methods(["GET", "POST"])
def player_invitation(request: HttpRequest, pk: int) -> HttpResponse:
    """One player's invitation: the card to print or show, issued again or withdrawn."""
    person = get_object_or_404(Player.objects.prefetch_related("invitations"), pk=pk)
    require(can_invite(request.user, person))
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "revoke":
                for open_one in person.invitations.filter(
                    used_at__isnull=True, revoked_at__isnull=True
                ):
                    invitation_revoke(invitation=open_one, user=request.user)
                messages.success(request, _("The invitation link no longer works."))
            else:
                invitation_issue(player=person, user=request.user)
                messages.success(
                    request,
                    _("A new invitation link is ready: the old one, if any, no longer works."),
                )
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
        return redirect("player_invitation", pk=person.pk)
    card = _card(request, person, _open_invitation(person))
    return render(request, "invitation_card.html", {"card": card, "player": person})


@sign_in_required
@require_http_methods(["GET", "POST"])
def tournament_invitations(request: HttpRequest, pk: int) -> HttpResponse:
    """Cards for the tournament's entrants who have no account yet: name, QR code, link."""
    found = get_object_or_404(Tournament, pk=pk)
    require(can_direct(request.user, found))
    entrants = (
        Player.objects.filter(entries__event__tournament=found)
        .distinct()
        .order_by("sort_name", "name", "id")
        .select_related("user")
        .prefetch_related(
            Prefetch(
                "invitations",
                queryset=Invitation.objects.filter(
                    used_at__isnull=True, revoked_at__isnull=True, expires_at__gt=timezone.now()
                ),
            )
        )
    )
    if request.method == "POST":
        waiting = [p for p in entrants if p.user_id is None and not p.invitations.all()]
        issued = invitations_issue(players=waiting, user=request.user)
        messages.success(request, _("Invitations issued: %(count)s.") % {"count": len(issued)})
        return redirect("tournament_invitations", pk=found.pk)
    cards, linked, missing = [], [], []
    for player in entrants:
        if player.user_id is not None:
            linked.append(player)
        elif player.invitations.all():
            cards.append(_card(request, player, player.invitations.all()[0]))
        else:
            missing.append(player)
    context = {
        "tournament": found,
        "cards": cards,
        "linked": linked,
        "missing": missing,
    }
    return render(request, "invitation_cards.html", context)


# --- asking to enter ---------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def event_ask(request: HttpRequest, pk: int) -> HttpResponse:
    """Ask to enter an event: a player signed in with one button, a visitor making an
    account on the way. Refused in plain words when the event takes no requests, and (429)
    when the visitor's address has made SIGN_UP_RATE accounts already."""
    found = get_object_or_404(Event.objects.select_related("tournament"), pk=pk)
    context: dict[str, object] = {"event": found, "tournament": found.tournament}
    if not found.tournament.open_entry or found.drawn:
        context["refusal"] = _("%(event)s does not take requests to enter: ask the director.") % {
            "event": found.name
        }
        return render(request, "event_ask.html", context)
    if request.user.is_authenticated:
        player = own_player(request.user)
        context["player"] = player
        if player is None or request.method != "POST":
            return render(request, "event_ask.html", context)
        require(can_ask_to_enter(request.user, found))
        try:
            entry_request_create(event=found, user=request.user)
        except ValidationError as error:
            context["refusal"] = error.messages[0]
            return render(request, "event_ask.html", context, status=409)
        messages.success(
            request,
            _("You asked to enter %(event)s: the director will answer.") % {"event": found.name},
        )
        return redirect("me")
    form = SignUpForm(request.POST or None)
    context["form"] = form
    if request.method == "POST" and form.is_valid():
        accounts = NewAccountsRate()  # so many an hour from one address (SIGN_UP_RATE)
        if not accounts.allow_request(request):
            wait = accounts.wait_seconds()
            minutes = math.ceil(wait / 60)
            context["refusal"] = ngettext(
                "Too many accounts have been made from your address for now: try again in "
                "%(minutes)s minute, or ask the director to enter you.",
                "Too many accounts have been made from your address for now: try again in "
                "%(minutes)s minutes, or ask the director to enter you.",
                minutes,
            ) % {"minutes": minutes}
            response = render(request, "event_ask.html", context, status=429)
            response["Retry-After"] = str(wait)
            return response
        data = form.cleaned_data
        try:
            asked = entry_request_sign_up(
                event=found,
                username=data["username"],
                password=data["password1"],
                name=data["name"],
                club=data["club"],
                email=data["email"],
                phone=data["phone"],
                user=request.user,
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            login(request, asked.player.user, backend=BACKEND)
            messages.success(
                request,
                _("You asked to enter %(event)s: the director will answer.")
                % {"event": found.name},
            )
            return redirect("me")
    status = 400 if form.errors else 200
    return render(request, "event_ask.html", context, status=status)


@sign_in_required
@require_POST
def tournament_open_entry(request: HttpRequest, pk: int) -> HttpResponse:
    found = get_object_or_404(Tournament, pk=pk)
    require(can_direct(request.user, found))
    form = OpenEntryForm(request.POST)
    if form.is_valid():
        tournament_open_entry_set(
            tournament=found, allowed=form.cleaned_data["allowed"], user=request.user
        )
        messages.success(request, _("The setting for players' requests is saved."))
    return redirect(f"{found.get_absolute_url()}#requests")


def _decide(request: HttpRequest, pk: int, approve: bool) -> HttpResponse:
    found = get_object_or_404(
        EntryRequest.objects.select_related("event__tournament", "player"), pk=pk
    )
    require(can_direct(request.user, found.event.tournament))
    try:
        entry_request_decide(request=found, approve=approve, user=request.user)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        done = (
            _("%(player)s is entered in %(event)s.")
            if approve
            else _("The request of %(player)s to enter %(event)s is declined.")
        )
        messages.success(request, done % {"player": found.player.name, "event": found.event.name})
    return redirect(f"{found.event.tournament.get_absolute_url()}#requests")


@sign_in_required
@require_POST
def entry_request_approve(request: HttpRequest, pk: int) -> HttpResponse:
    return _decide(request, pk, approve=True)


@sign_in_required
@require_POST
def entry_request_decline(request: HttpRequest, pk: int) -> HttpResponse:
    return _decide(request, pk, approve=False)


# --- checking in from the phone ------------------------------------------------------------


@sign_in_required
@require_http_methods(["GET", "POST"])
def tournament_here(request: HttpRequest, pk: int) -> HttpResponse:
    """Where the QR code at the venue leads: the player confirms, and is checked in.

    Also what the button on the player's home posts to (``entry``: which of their entries).
    """
    found = get_object_or_404(Tournament, pk=pk)
    player = own_player(request.user)
    if player is None:
        return render(request, "me_unlinked.html", {"tournament": found})
    entries = list(
        Entry.objects.filter(event__tournament=found, player=player)
        .select_related("event__tournament", "player")
        .order_by("event_id")
    )
    if request.method == "POST":
        entry = get_object_or_404(
            Entry.objects.select_related("event__tournament", "player"),
            pk=row_id(request.POST.get("entry")) or 0,  # not a number: not found
            event__tournament=found,
        )
        try:
            entry_check_in(entry=entry, user=request.user)
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
            return redirect("tournament_here", pk=found.pk)
        messages.success(
            request, _("You are checked in for %(event)s.") % {"event": entry.event.name}
        )
        return redirect("me")
    context = {"tournament": found, "player": player, "entries": entries}
    return render(request, "check_in_here.html", context)


@sign_in_required
def check_in_poster(request: HttpRequest, pk: int) -> HttpResponse:
    """The page to print and stand at the door: a QR code the players scan to check in."""
    found = get_object_or_404(Tournament, pk=pk)
    require(can_direct(request.user, found))
    link = _link(request, reverse("tournament_here", args=[found.pk]))
    return render(request, "check_in_poster.html", {"tournament": found, "link": link})
