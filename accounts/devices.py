"""A device's name the player recognises, made from the User-Agent of its sign-in ("Chrome on
Android", "Firefox on Windows") when the client names none: the account page lists devices by
it. A pure function of the header; nothing else is read from it or kept of it."""

from __future__ import annotations

import re

MAX_LENGTH = 64  # ApiToken.name

# The first match names it: Edge and Opera say "Chrome" too, Chrome says "Safari" too.
_BROWSERS = [
    (r"\bEdgA?/|\bEdg[ei]?/", "Edge"),
    (r"\bOPR/|\bOpera\b", "Opera"),
    (r"\bSamsungBrowser/", "Samsung Internet"),
    (r"\bFirefox/|\bFxiOS/", "Firefox"),
    (r"\bCriOS/|\bChrom(e|ium)/|HeadlessChrome/", "Chrome"),
    (r"\bVersion/[\d.]+.*\bSafari/", "Safari"),
]
_SYSTEMS = [
    (r"\biPhone\b", "iPhone"),
    (r"\biPad\b", "iPad"),
    (r"\bAndroid\b", "Android"),
    (r"\bCrOS\b", "ChromeOS"),
    (r"\bWindows\b", "Windows"),
    (r"\bMac OS X\b|\bMacintosh\b", "macOS"),
    (r"\bLinux\b", "Linux"),
]
# Clients that are not browsers: a library's name and version ("python-requests/2.32").
_PROGRAM = re.compile(r"^([A-Za-z][\w.-]{0,30})/[\d.]+")


def device_label(user_agent: str) -> str:
    """What the User-Agent says the client is: browser and system, a program's name, or
    "Unknown device"."""
    browser = next((name for pattern, name in _BROWSERS if re.search(pattern, user_agent)), None)
    system = next((name for pattern, name in _SYSTEMS if re.search(pattern, user_agent)), None)
    if browser and system:
        return f"{browser} on {system}"
    if browser or system:
        return str(browser or system)
    program = _PROGRAM.match(user_agent.strip())
    if program and program.group(1) != "Mozilla":
        return program.group(1)
    return "Unknown device"


def unique_name(label: str, taken: set[str]) -> str:
    """``label``, or ``label 2``, ``label 3``... the first not in ``taken`` (a player's
    other devices: a second laptop with the same browser must not sign the first out)."""
    label = label[: MAX_LENGTH - 4]
    if label not in taken:
        return label
    n = 2
    while f"{label} {n}" in taken:
        n += 1
    return f"{label} {n}"
