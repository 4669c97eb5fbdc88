"""The site's addresses: public pages, the director's forms, sign-in, the admin."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

urlpatterns = [
    path("", include("tournaments.urls")),
    path("matches/", include("matches.urls")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]

handler404 = "tournaments.views.page_not_found"
handler500 = "tournaments.views.server_error"
