"""A device signed in without a name is named from its User-Agent, so the account page lists
"Chrome on Android", not a made-up code; a second device alike gets a number."""

from __future__ import annotations

import pytest

from accounts.devices import device_label, unique_name
from accounts.models import ApiToken
from tests.conftest import PASSWORD

CHROME_ANDROID = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Mobile Safari/537.36"
)
SAFARI_IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like "
    "Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
)
FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"
EDGE_WINDOWS = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0"
)
CHROME_MAC = (
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Safari/537.36"
)
HEADLESS_LINUX = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "HeadlessChrome/131.0.0.0 Safari/537.36"
)


@pytest.mark.parametrize(
    ("agent", "label"),
    [
        (CHROME_ANDROID, "Chrome on Android"),
        (SAFARI_IPHONE, "Safari on iPhone"),
        (FIREFOX_WINDOWS, "Firefox on Windows"),
        (EDGE_WINDOWS, "Edge on Windows"),
        (CHROME_MAC, "Chrome on macOS"),
        (HEADLESS_LINUX, "Chrome on Linux"),
        ("python-requests/2.32.3", "python-requests"),
        ("curl/8.5.0", "curl"),
        ("", "Unknown device"),
        ("\x00garbage", "Unknown device"),
    ],
)
def test_a_user_agent_names_the_device(agent, label):
    assert device_label(agent) == label


def test_a_name_taken_gets_the_next_number():
    assert unique_name("Chrome on Linux", set()) == "Chrome on Linux"
    assert unique_name("Chrome on Linux", {"Chrome on Linux"}) == "Chrome on Linux 2"
    taken = {"Chrome on Linux", "Chrome on Linux 2"}
    assert unique_name("Chrome on Linux", taken) == "Chrome on Linux 3"
    assert len(unique_name("x" * 100, set())) <= 64


@pytest.mark.django_db
def test_sign_ins_register_and_guests_are_named_from_their_browser(api_client, user):
    signed_in = api_client.post(
        "/api/v1/auth/token",
        {"username": user.username, "password": PASSWORD},
        format="json",
        HTTP_USER_AGENT=CHROME_ANDROID,
    ).json()
    again = api_client.post(
        "/api/v1/auth/token",
        {"username": user.username, "password": PASSWORD},
        format="json",
        HTTP_USER_AGENT=CHROME_ANDROID,
    ).json()
    registered = api_client.post(
        "/api/v1/auth/register",
        {"username": "newcomer", "password": PASSWORD},
        format="json",
        HTTP_USER_AGENT=SAFARI_IPHONE,
    ).json()
    guest = api_client.post("/api/v1/auth/guest", HTTP_USER_AGENT=FIREFOX_WINDOWS).json()

    assert (signed_in["device"], again["device"]) == ("Chrome on Android", "Chrome on Android 2")
    assert registered["device"] == "Safari on iPhone"
    assert guest["device"] == "Firefox on Windows"
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {signed_in['token']}")
    listed = {t["name"] for t in api_client.get("/api/v1/me/tokens").json()}
    assert {"Chrome on Android", "Chrome on Android 2"} <= listed
    # A name the client sends is still the device's, and replaces that device's token.
    named = api_client.post(
        "/api/v1/auth/token",
        {"username": user.username, "password": PASSWORD, "device": "Chrome on Android"},
        format="json",
    ).json()
    assert named["device"] == "Chrome on Android"
    assert ApiToken.objects.filter(user=user, name="Chrome on Android").count() == 1
