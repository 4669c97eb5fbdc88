from django.urls import path

from matches import report_views

from . import dashboard_views, event_views, live_views, player_views, transfer_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("players/", views.players, name="players"),
    path("players/new/", views.player_new, name="player_new"),
    path("players/import/", views.players_import_view, name="players_import"),
    path("players/<int:pk>/", views.player, name="player"),
    path("ratings/", views.ratings, name="ratings"),
    path("ratings/formula/", views.rating_formula, name="rating_formula"),
    path("players/<int:pk>/edit/", views.player_edit, name="player_edit"),
    path("players/<int:pk>/invitation/", player_views.player_invitation, name="player_invitation"),
    path("me/", player_views.me, name="me"),
    path("me/emails/", report_views.notifications, name="notifications"),
    path("me/profile/", player_views.my_profile, name="my_profile"),
    path("invitations/<str:token>/", player_views.invitation, name="invitation"),
    path(
        "tournaments/<int:pk>/invitations/",
        player_views.tournament_invitations,
        name="tournament_invitations",
    ),
    path("tournaments/<int:pk>/here/", player_views.tournament_here, name="tournament_here"),
    path(
        "tournaments/<int:pk>/check-in/poster/",
        player_views.check_in_poster,
        name="check_in_poster",
    ),
    path(
        "tournaments/<int:pk>/open-entry/",
        player_views.tournament_open_entry,
        name="tournament_open_entry",
    ),
    path("events/<int:pk>/ask/", player_views.event_ask, name="event_ask"),
    path(
        "entry-requests/<int:pk>/approve/",
        player_views.entry_request_approve,
        name="entry_request_approve",
    ),
    path(
        "entry-requests/<int:pk>/decline/",
        player_views.entry_request_decline,
        name="entry_request_decline",
    ),
    path("tournaments/", event_views.tournaments, name="tournaments"),
    path("tournaments/new/", event_views.tournament_new, name="tournament_new"),
    path("tournaments/import/", transfer_views.tournament_import_view, name="tournament_import"),
    path("tournaments/<int:pk>/", event_views.tournament, name="tournament"),
    path("tournaments/<int:pk>/edit/", event_views.tournament_edit, name="tournament_edit"),
    path(
        "tournaments/<int:pk>/export/",
        transfer_views.tournament_export,
        name="tournament_export",
    ),
    path("tournaments/<int:pk>/events/new/", event_views.event_new, name="event_new"),
    path(
        "tournaments/<int:pk>/changes/", event_views.tournament_changes, name="tournament_changes"
    ),
    path(
        "tournaments/<int:pk>/dashboard/",
        dashboard_views.tournament_dashboard_view,
        name="tournament_dashboard",
    ),
    path("tournaments/<int:pk>/playing/", live_views.now_playing, name="now_playing"),
    path("tournaments/<int:pk>/wall/", live_views.wall, name="wall"),
    path(
        "tournaments/<int:pk>/announcements/",
        live_views.announcement_new,
        name="announcement_new",
    ),
    path(
        "tournaments/<int:pk>/announcements/<int:number>/withdraw/",
        live_views.announcement_withdraw_view,
        name="announcement_withdraw",
    ),
    path("tournaments/<int:pk>/dice/", event_views.tournament_dice, name="tournament_dice"),
    path("tournaments/<int:pk>/tables/", event_views.tournament_tables, name="tournament_tables"),
    path("tournaments/<int:pk>/late/", event_views.tournament_late_rounds, name="tournament_late"),
    path(
        "tournaments/<int:pk>/results/",
        event_views.tournament_reports,
        name="tournament_reports",
    ),
    path("tournaments/<int:pk>/tables/cards/", event_views.table_cards, name="table_cards"),
    path(
        "events/<int:pk>/rounds/<int:number>/table/",
        event_views.round_table_move,
        name="round_table_move",
    ),
    path("events/<int:pk>/", event_views.event, name="event"),
    path("events/<int:pk>/edit/", event_views.event_edit, name="event_edit"),
    path("events/<int:pk>/entries/", event_views.entries_add, name="entries_add"),
    path("events/<int:pk>/draw/", event_views.draw, name="draw"),
    path("events/<int:pk>/redraw/", event_views.redraw, name="redraw"),
    path("events/<int:pk>/draw/undo/", event_views.draw_undo, name="draw_undo"),
    path("events/<int:pk>/check-in/", event_views.check_in_all, name="event_check_in_all"),
    path("events/<int:pk>/late/", event_views.late_entry, name="late_entry"),
    path("events/<int:pk>/pair/", event_views.pair_next_round, name="pair_next_round"),
    path("events/<int:pk>/cut/", event_views.cut, name="cut"),
    path("events/<int:pk>/bracket/", event_views.bracket, name="bracket"),
    path("events/<int:pk>/rounds/<int:number>/", event_views.round_pairings, name="round"),
    path(
        "events/<int:pk>/rounds/<int:number>/sheets/",
        event_views.round_sheets,
        name="round_sheets",
    ),
    path("entries/<int:pk>/check-in/", event_views.entry_check_in_view, name="entry_check_in"),
    path(
        "entries/<int:pk>/check-in/undo/",
        event_views.entry_check_in_undo_view,
        name="entry_check_in_undo",
    ),
    path("entries/<int:pk>/withdraw/", event_views.entry_withdraw_view, name="entry_withdraw"),
    path("entries/<int:pk>/reinstate/", event_views.entry_reinstate_view, name="entry_reinstate"),
]
