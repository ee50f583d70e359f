"""Routes mozilla-django-oidc reverses by these exact (un-namespaced) names."""

from __future__ import annotations

from django.urls import path

from accounts import oidc, views

urlpatterns = [
    path("authenticate/", oidc.AuthenticateView.as_view(), name="oidc_authentication_init"),
    path("callback/", oidc.CallbackView.as_view(), name="oidc_authentication_callback"),
    path("refused/", views.oidc_refused, name="oidc_refused"),
]
