"""Pages with personal data are never cached and carry the security headers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


PAGES = ["console:overview", "console:memories", "console:switches", "console:memory_delete_all"]


@pytest.mark.parametrize("name", PAGES)
def test_console_pages_are_not_stored(alice_client, name):
    response = alice_client.get(reverse(name))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]


def test_htmx_fragments_are_not_stored(alice_client):
    response = alice_client.get(reverse("console:memories"), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]


def test_security_headers(alice_client):
    response = alice_client.get(reverse("console:overview"))
    policy = response["Content-Security-Policy"]
    csp = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert csp["default-src"] == "'self'"
    assert csp["script-src"] == "'self'"  # no inline script, no eval: HTMX runs from a file
    assert "'unsafe-inline'" not in csp["style-src"]
    assert csp["frame-ancestors"] == "'none'"
    assert csp["object-src"] == "'none'"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"


def test_login_page_has_the_headers_too(client: Client):
    response = client.get(reverse("login"))
    assert "Content-Security-Policy" in response
    assert "no-store" in response["Cache-Control"]


def test_templates_have_no_inline_scripts_or_style_elements():
    """The CSP allows scripts and style sheets from files only; keep the templates that way."""
    templates = Path(__file__).resolve().parents[2] / "templates"
    inline = re.compile(r"<style|<script(?![^>]*\ssrc=)|\son[a-z]+=\"", re.IGNORECASE)
    offenders = [
        str(path.relative_to(templates))
        for path in templates.rglob("*.html")
        if inline.search(path.read_text())
    ]
    assert offenders == []
