"""Discord platform limits and pure validators used by the fake.

Every validator returns a list of :class:`Problem`.  An empty list means the
payload would be accepted by Discord (as far as the fake models it).  The
server turns problems into a ``400 Invalid Form Body`` (code 50035) answer and
records one :class:`~tools.loopback.models.Violation` per problem.

The numbers come from /work/shared/design/discord-notes.md section 1.
"""

from __future__ import annotations

import unicodedata
from typing import Any, Iterable, List, NamedTuple, Optional, Sequence, Tuple

try:  # the exact Discord regex needs the third-party ``regex`` module
    import regex as _regex  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - depends on the environment
    _regex = None

# --------------------------------------------------------------------------- numbers
MiB = 1024 * 1024

MESSAGE_CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_NAME_MAX = 256
EMBED_TOTAL_MAX = 6000

ACTION_ROWS_MAX = 5
BUTTONS_PER_ROW_MAX = 5
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
LINK_URL_MAX = 512
SELECT_OPTIONS_MAX = 25
SELECT_VALUES_MAX = 25
SELECT_OPTION_LABEL_MAX = 100
SELECT_OPTION_VALUE_MAX = 100
SELECT_OPTION_DESCRIPTION_MAX = 100
SELECT_PLACEHOLDER_MAX = 150
V2_COMPONENTS_MAX = 40
MODAL_TITLE_MAX = 45

AUTOCOMPLETE_CHOICES_MAX = 25
CHOICE_NAME_MAX = 100
CHOICE_STRING_VALUE_MAX = 100

COMMAND_NAME_MAX = 32
COMMAND_DESCRIPTION_MAX = 100
COMMAND_OPTIONS_MAX = 25
COMMAND_CHOICES_MAX = 25
COMMAND_TOTAL_CHARS_MAX = 8000
CHAT_INPUT_COMMANDS_MAX = 100
CONTEXT_MENU_COMMANDS_MAX = 15  # per type (USER, MESSAGE)
COMMAND_CREATES_PER_DAY = 200

FILES_MAX = 10
ATTACHMENT_DESCRIPTION_MAX = 1024  # alt text of one attachment
DEFAULT_ATTACHMENT_SIZE_LIMIT = 10 * MiB

THREAD_NAME_MAX = 100
AUTO_ARCHIVE_DURATIONS = frozenset({60, 1440, 4320, 10080})

ACK_DEADLINE = 3.0  # seconds from INTERACTION_CREATE to the first callback
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction token stays valid

# message flags
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15

# The 32 locales Discord accepts as keys of name/description_localizations.
LOCALES = frozenset(
    {
        "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt",
        "hu", "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el",
        "bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko",
    }
)

# Permission bits (subset) - https://discord.com/developers/docs/topics/permissions
PERMISSIONS = {
    "create_instant_invite": 1 << 0,
    "kick_members": 1 << 1,
    "ban_members": 1 << 2,
    "administrator": 1 << 3,
    "manage_channels": 1 << 4,
    "manage_guild": 1 << 5,
    "add_reactions": 1 << 6,
    "view_channel": 1 << 10,
    "send_messages": 1 << 11,
    "manage_messages": 1 << 13,
    "embed_links": 1 << 14,
    "attach_files": 1 << 15,
    "read_message_history": 1 << 16,
    "mention_everyone": 1 << 17,
    "use_external_emojis": 1 << 18,
    "manage_roles": 1 << 28,
    "use_application_commands": 1 << 31,
    "manage_threads": 1 << 34,
    "create_public_threads": 1 << 35,
    "create_private_threads": 1 << 36,
    "send_messages_in_threads": 1 << 38,
}


def permission_value(*names: str) -> int:
    """OR together permission bits by (discord.py style) name."""
    value = 0
    for name in names:
        value |= PERMISSIONS[name]
    return value


DEFAULT_MEMBER_PERMISSIONS = permission_value(
    "create_instant_invite", "add_reactions", "view_channel", "send_messages", "embed_links",
    "attach_files", "read_message_history", "use_external_emojis", "use_application_commands",
    "create_public_threads", "create_private_threads", "send_messages_in_threads",
)
DEFAULT_APP_PERMISSIONS = DEFAULT_MEMBER_PERMISSIONS | permission_value("manage_threads", "manage_messages")

# Installs and places (developers/interactions/application-commands "Contexts";
# receiving-and-responding "Interaction Context Types", "Authorizing Integration Owners").
GUILD_INSTALL, USER_INSTALL = 0, 1  # a command's integration_types
CONTEXT_GUILD, CONTEXT_BOT_DM, CONTEXT_PRIVATE_CHANNEL = 0, 1, 2  # a command's contexts, an interaction's context
# What an app has in (G)DMs with other users, and in the DM with its own bot user
# (receiving-and-responding, the interaction's app_permissions).
PRIVATE_CHANNEL_APP_PERMISSIONS = permission_value("attach_files", "embed_links", "mention_everyone")
BOT_DM_APP_PERMISSIONS = PRIVATE_CHANNEL_APP_PERMISSIONS | permission_value("use_external_emojis")
# An interaction authorized only by a user install (the app is not installed where it came
# from) takes at most this many follow-ups ("Create Followup Message"; error 40094).
USER_INSTALL_FOLLOWUPS_MAX = 5


# --------------------------------------------------------------------------- problems
class Problem(NamedTuple):
    """One reason Discord would reject a payload.

    ``path`` locates the field in the JSON body (as in Discord's ``errors``
    object), ``code`` is Discord's error code string, ``rule`` a short stable
    name tests can match on.
    """

    path: Tuple[Any, ...]
    code: str
    message: str
    rule: str

    def describe(self) -> str:
        where = ".".join(str(p) for p in self.path) or "<body>"
        return f"{self.rule}: {where}: {self.message}"


def errors_object(problems: Sequence[Problem]) -> dict:
    """Build Discord's nested ``errors`` object ({"content": {"_errors": [...]}})."""
    root: dict = {}
    for problem in problems:
        node = root
        for part in problem.path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": problem.code, "message": problem.message})
    return root


def invalid_form_body(problems: Sequence[Problem]) -> dict:
    return {"code": 50035, "message": "Invalid Form Body", "errors": errors_object(problems)}


def _too_long(path, value, limit, rule) -> List[Problem]:
    if value is not None and len(str(value)) > limit:
        return [Problem(tuple(path), "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.", rule)]
    return []


# --------------------------------------------------------------------------- messages
def embed_characters(embed: dict) -> int:
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    for field in embed.get("fields") or []:
        total += len(field.get("name") or "") + len(field.get("value") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    return total


def check_embeds(embeds: Any, path: Tuple[Any, ...] = ("embeds",)) -> List[Problem]:
    if embeds is None:
        return []
    problems: List[Problem] = []
    if len(embeds) > EMBEDS_MAX:
        problems.append(Problem(path, "BASE_TYPE_MAX_LENGTH", f"Must be {EMBEDS_MAX} or fewer in length.", "embeds_count"))
    total = 0
    for i, embed in enumerate(embeds):
        p = path + (i,)
        problems += _too_long(p + ("title",), embed.get("title"), EMBED_TITLE_MAX, "embed_title")
        problems += _too_long(p + ("description",), embed.get("description"), EMBED_DESCRIPTION_MAX, "embed_description")
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS_MAX:
            problems.append(
                Problem(p + ("fields",), "BASE_TYPE_MAX_LENGTH", f"Must be {EMBED_FIELDS_MAX} or fewer in length.", "embed_fields")
            )
        for j, field in enumerate(fields):
            problems += _too_long(p + ("fields", j, "name"), field.get("name"), EMBED_FIELD_NAME_MAX, "embed_field_name")
            problems += _too_long(p + ("fields", j, "value"), field.get("value"), EMBED_FIELD_VALUE_MAX, "embed_field_value")
            if not field.get("name") or not field.get("value"):
                problems.append(Problem(p + ("fields", j), "BASE_TYPE_REQUIRED", "This field is required", "embed_field_empty"))
        problems += _too_long(p + ("footer", "text"), (embed.get("footer") or {}).get("text"), EMBED_FOOTER_MAX, "embed_footer")
        problems += _too_long(p + ("author", "name"), (embed.get("author") or {}).get("name"), EMBED_AUTHOR_NAME_MAX, "embed_author")
        total += embed_characters(embed)
    if total > EMBED_TOTAL_MAX:
        problems.append(
            Problem(path, "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}", "embed_total")
        )
    return problems


_SELECT_TYPES = {3, 5, 6, 7, 8}
_V2_TOP_LEVEL = {1, 9, 10, 12, 13, 14, 17}


def _walk_components(components: Iterable[dict]) -> Iterable[dict]:
    for comp in components or []:
        yield comp
        yield from _walk_components(comp.get("components") or [])
        accessory = comp.get("accessory")
        if accessory:
            yield accessory
        child = comp.get("component")  # label component (modals)
        if child:
            yield child


def _check_button(path, button: dict) -> List[Problem]:
    problems: List[Problem] = []
    style = button.get("style")
    problems += _too_long(path + ("label",), button.get("label"), BUTTON_LABEL_MAX, "button_label")
    if style == 5:
        if not button.get("url"):
            problems.append(Problem(path + ("url",), "BASE_TYPE_REQUIRED", "Link buttons need a url", "button_url"))
        if button.get("custom_id") is not None:
            problems.append(Problem(path + ("custom_id",), "COMPONENT_INVALID", "Link buttons cannot have a custom_id", "custom_id"))
        problems += _too_long(path + ("url",), button.get("url"), LINK_URL_MAX, "button_url")
    elif style == 6:
        if not button.get("sku_id"):
            problems.append(Problem(path + ("sku_id",), "BASE_TYPE_REQUIRED", "Premium buttons need a sku_id", "button_sku"))
    elif style in (1, 2, 3, 4):
        if button.get("custom_id") is None:
            problems.append(Problem(path + ("custom_id",), "BASE_TYPE_REQUIRED", "This field is required", "custom_id"))
    else:
        problems.append(Problem(path + ("style",), "BASE_TYPE_CHOICES", "Value must be one of (1, 2, 3, 4, 5, 6).", "button_style"))
    return problems


def _check_select(path, select: dict) -> List[Problem]:
    problems: List[Problem] = []
    if select.get("custom_id") is None:
        problems.append(Problem(path + ("custom_id",), "BASE_TYPE_REQUIRED", "This field is required", "custom_id"))
    problems += _too_long(path + ("placeholder",), select.get("placeholder"), SELECT_PLACEHOLDER_MAX, "select_placeholder")
    min_values = select.get("min_values", 1)
    max_values = select.get("max_values", 1)
    if not 0 <= min_values <= SELECT_VALUES_MAX:
        problems.append(Problem(path + ("min_values",), "NUMBER_TYPE_MAX", f"min_values must be 0-{SELECT_VALUES_MAX}", "select_values"))
    if not 1 <= max_values <= SELECT_VALUES_MAX:
        problems.append(Problem(path + ("max_values",), "NUMBER_TYPE_MAX", f"max_values must be 1-{SELECT_VALUES_MAX}", "select_values"))
    if min_values > max_values:
        problems.append(Problem(path + ("min_values",), "SELECT_COMPONENT_MIN_VALUES_TOO_HIGH", "min_values > max_values", "select_values"))
    if select.get("type") == 3:
        options = select.get("options") or []
        if not 1 <= len(options) <= SELECT_OPTIONS_MAX:
            problems.append(
                Problem(path + ("options",), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {SELECT_OPTIONS_MAX} in length.", "select_options")
            )
        if max_values > len(options) and options:
            problems.append(
                Problem(path + ("max_values",), "SELECT_COMPONENT_MAX_VALUES_TOO_HIGH", "max_values exceeds the number of options", "select_values")
            )
        seen = set()
        for k, option in enumerate(options):
            op = path + ("options", k)
            label, value = option.get("label"), option.get("value")
            if not label:
                problems.append(Problem(op + ("label",), "BASE_TYPE_REQUIRED", "This field is required", "select_option_label"))
            problems += _too_long(op + ("label",), label, SELECT_OPTION_LABEL_MAX, "select_option_label")
            if not value:
                problems.append(Problem(op + ("value",), "BASE_TYPE_REQUIRED", "This field is required", "select_option_value"))
            problems += _too_long(op + ("value",), value, SELECT_OPTION_VALUE_MAX, "select_option_value")
            problems += _too_long(op + ("description",), option.get("description"), SELECT_OPTION_DESCRIPTION_MAX, "select_option_description")
            if value in seen:
                problems.append(Problem(op + ("value",), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "Option values must be unique", "select_option_value"))
            seen.add(value)
    return problems


def _check_action_row(path, row: dict) -> List[Problem]:
    problems: List[Problem] = []
    children = row.get("components") or []
    if not children:
        problems.append(Problem(path + ("components",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.", "action_row_empty"))
    buttons = [c for c in children if c.get("type") == 2]
    selects = [c for c in children if c.get("type") in _SELECT_TYPES]
    if len(buttons) > BUTTONS_PER_ROW_MAX:
        problems.append(
            Problem(path + ("components",), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {BUTTONS_PER_ROW_MAX} in length.", "row_buttons")
        )
    if selects and len(children) > 1:
        problems.append(
            Problem(path + ("components",), "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "A select menu must be alone in its action row", "select_not_alone")
        )
    for k, child in enumerate(children):
        cp = path + ("components", k)
        ctype = child.get("type")
        if ctype == 2:
            problems += _check_button(cp, child)
        elif ctype in _SELECT_TYPES:
            problems += _check_select(cp, child)
        else:
            problems.append(Problem(cp + ("type",), "COMPONENT_INVALID", f"Component type {ctype} is not allowed in an action row", "component_type"))
    return problems


def check_components(components: Any, flags: int = 0, path: Tuple[Any, ...] = ("components",)) -> List[Problem]:
    if components is None:
        return []
    problems: List[Problem] = []
    v2 = bool(flags & FLAG_COMPONENTS_V2)
    if v2:
        total = sum(1 for _ in _walk_components(components))
        if total > V2_COMPONENTS_MAX:
            problems.append(Problem(path, "BASE_TYPE_MAX_LENGTH", f"Must be {V2_COMPONENTS_MAX} or fewer components in total.", "v2_components"))
        for i, comp in enumerate(components):
            if comp.get("type") not in _V2_TOP_LEVEL:
                problems.append(Problem(path + (i, "type"), "COMPONENT_INVALID", "Invalid top-level component", "component_type"))
        for i, comp in enumerate(_walk_components(components)):
            if comp.get("type") == 1:
                problems += _check_action_row(path + (i,), comp)
    else:
        if len(components) > ACTION_ROWS_MAX:
            problems.append(Problem(path, "BASE_TYPE_MAX_LENGTH", f"Must be {ACTION_ROWS_MAX} or fewer in length.", "action_rows"))
        for i, row in enumerate(components):
            if row.get("type") != 1:
                problems.append(
                    Problem(path + (i, "type"), "COMPONENT_INVALID", "Top-level components must be action rows (or set IS_COMPONENTS_V2)", "component_type")
                )
                continue
            problems += _check_action_row(path + (i,), row)
    # custom_id: 1..100 characters and unique within the message
    seen: dict = {}
    for comp in _walk_components(components):
        custom_id = comp.get("custom_id")
        if custom_id is None:
            continue
        if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= CUSTOM_ID_MAX:
            problems.append(
                Problem(path + ("custom_id",), "BASE_TYPE_BAD_LENGTH", f"custom_id must be 1-{CUSTOM_ID_MAX} characters: {custom_id!r:.120}", "custom_id")
            )
        if custom_id in seen:
            problems.append(
                Problem(path + ("custom_id",), "COMPONENT_CUSTOM_ID_DUPLICATED", f"Component custom id cannot be duplicated: {custom_id!r}", "custom_id_duplicate")
            )
        seen[custom_id] = True
    return problems


def check_message(
    payload: dict,
    *,
    partial: bool = False,
    n_files: int = 0,
    path: Tuple[Any, ...] = (),
) -> List[Problem]:
    """Validate a message create (``partial=False``) or edit payload."""
    problems: List[Problem] = []
    content = payload.get("content")
    flags = payload.get("flags") or 0
    problems += _too_long(path + ("content",), content, MESSAGE_CONTENT_MAX, "content_length")
    problems += check_embeds(payload.get("embeds"), path + ("embeds",))
    problems += check_components(payload.get("components"), flags, path + ("components",))
    if flags & FLAG_COMPONENTS_V2 and (content or payload.get("embeds")):
        problems.append(
            Problem(path + ("content",), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    "content and embeds cannot be used with IS_COMPONENTS_V2", "v2_legacy_fields")
        )
    for i, attachment in enumerate(payload.get("attachments") or []):
        if isinstance(attachment, dict):
            problems += _too_long(path + ("attachments", i, "description"), attachment.get("description"),
                                  ATTACHMENT_DESCRIPTION_MAX, "attachment_description")
    if n_files > FILES_MAX:
        problems.append(Problem(path + ("files",), "BASE_TYPE_MAX_LENGTH", f"Must be {FILES_MAX} or fewer files.", "files_count"))
    if not partial and not (
        content or payload.get("embeds") or payload.get("components") or n_files or payload.get("sticker_ids") or payload.get("poll")
    ):
        problems.append(Problem(path, "MESSAGE_EMPTY", "Cannot send an empty message", "empty_message"))
    return problems


def check_allowed_mentions(payload: dict) -> bool:
    """True when the message's allowed_mentions may ping @everyone/@here or roles."""
    allowed = payload.get("allowed_mentions")
    if allowed is None:
        return True  # Discord's default: parse every mention in the content
    parse = allowed.get("parse") or []
    return "everyone" in parse or "roles" in parse or bool(allowed.get("roles"))


# --------------------------------------------------------------------------- autocomplete
def check_autocomplete(data: Optional[dict]) -> List[Problem]:
    problems: List[Problem] = []
    choices = (data or {}).get("choices")
    if choices is None:
        return [Problem(("data", "choices"), "BASE_TYPE_REQUIRED", "This field is required", "autocomplete_choices")]
    if len(choices) > AUTOCOMPLETE_CHOICES_MAX:
        problems.append(
            Problem(("data", "choices"), "BASE_TYPE_MAX_LENGTH", f"Must be {AUTOCOMPLETE_CHOICES_MAX} or fewer in length.", "autocomplete_choices")
        )
    for i, choice in enumerate(choices):
        p = ("data", "choices", i)
        problems += _check_choice(p, choice, "autocomplete_choice")
    return problems


def _check_choice(path, choice: dict, rule: str) -> List[Problem]:
    problems: List[Problem] = []
    name = choice.get("name")
    if not name or len(name) > CHOICE_NAME_MAX:
        problems.append(Problem(path + ("name",), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {CHOICE_NAME_MAX} in length.", rule + "_name"))
    for locale, text in (choice.get("name_localizations") or {}).items():
        if not text or len(text) > CHOICE_NAME_MAX:
            problems.append(
                Problem(path + ("name_localizations", locale), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {CHOICE_NAME_MAX} in length.", rule + "_name")
            )
    value = choice.get("value")
    if isinstance(value, str) and len(value) > CHOICE_STRING_VALUE_MAX:
        problems.append(
            Problem(path + ("value",), "BASE_TYPE_MAX_LENGTH", f"Must be {CHOICE_STRING_VALUE_MAX} or fewer in length.", rule + "_value")
        )
    return problems


# --------------------------------------------------------------------------- commands
def _name_char_ok(ch: str) -> bool:
    if ch in "-_'":
        return True
    if unicodedata.category(ch)[0] in "LN":
        return True
    cp = ord(ch)
    # Devanagari, Devanagari Extended, Thai (combining marks are category M)
    return 0x0900 <= cp <= 0x097F or 0xA8E0 <= cp <= 0xA8FF or 0x0E00 <= cp <= 0x0E7F


_NAME_PATTERN = r"^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$"


def is_valid_command_name(name: Any) -> bool:
    """Discord's CHAT_INPUT name rule: the regex plus lowercase."""
    if not isinstance(name, str):
        return False
    if _regex is not None:
        ok = _regex.match(_NAME_PATTERN, name) is not None
    else:
        ok = 1 <= len(name) <= COMMAND_NAME_MAX and all(_name_char_ok(ch) for ch in name)
    return ok and name.lower() == name


def _check_name(path, name, rule, chat_input=True) -> List[Problem]:
    if chat_input:
        if not is_valid_command_name(name):
            return [Problem(path, "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name!r}", rule)]
        return []
    if not isinstance(name, str) or not 1 <= len(name) <= COMMAND_NAME_MAX:
        return [Problem(path, "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {COMMAND_NAME_MAX} in length.", rule)]
    return []


def _check_description(path, text, rule) -> List[Problem]:
    if not isinstance(text, str) or not 1 <= len(text) <= COMMAND_DESCRIPTION_MAX:
        return [Problem(path, "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {COMMAND_DESCRIPTION_MAX} in length.", rule)]
    return []


def _check_localized(obj: dict, path, chat_input: bool, needs_description: bool) -> List[Problem]:
    problems: List[Problem] = []
    problems += _check_name(path + ("name",), obj.get("name"), "command_name", chat_input)
    for locale, text in (obj.get("name_localizations") or {}).items():
        if locale not in LOCALES:
            problems.append(Problem(path + ("name_localizations", locale), "LOCALE_INVALID", f"Invalid locale {locale!r}", "command_locale"))
        problems += _check_name(path + ("name_localizations", locale), text, "command_name", chat_input)
    if needs_description:
        problems += _check_description(path + ("description",), obj.get("description"), "command_description")
        for locale, text in (obj.get("description_localizations") or {}).items():
            if locale not in LOCALES:
                problems.append(
                    Problem(path + ("description_localizations", locale), "LOCALE_INVALID", f"Invalid locale {locale!r}", "command_locale")
                )
            problems += _check_description(path + ("description_localizations", locale), text, "command_description")
    return problems


def _longest(obj: dict, key: str) -> int:
    base = len(obj.get(key) or "")
    localized = [len(v or "") for v in (obj.get(key + "_localizations") or {}).values()]
    return max([base] + localized)


def command_characters(command: dict) -> int:
    """Characters counted against the 8000 limit (longest localization of each field)."""

    def walk(obj: dict) -> int:
        total = _longest(obj, "name") + _longest(obj, "description")
        for choice in obj.get("choices") or []:
            total += _longest(choice, "name") + len(str(choice.get("value", "")))
        for option in obj.get("options") or []:
            total += walk(option)
        return total

    return walk(command)


def _check_options(options: list, path, depth: int) -> List[Problem]:
    problems: List[Problem] = []
    if len(options) > COMMAND_OPTIONS_MAX:
        problems.append(Problem(path, "BASE_TYPE_MAX_LENGTH", f"Must be {COMMAND_OPTIONS_MAX} or fewer in length.", "command_options"))
    names = set()
    seen_optional = False
    sub_types = [o.get("type") in (1, 2) for o in options]
    if any(sub_types) and not all(sub_types):
        problems.append(Problem(path, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Cannot mix subcommands and options", "command_options"))
    for i, option in enumerate(options):
        p = path + (i,)
        otype = option.get("type")
        problems += _check_localized(option, p, True, True)
        if option.get("name") in names:
            problems.append(Problem(p + ("name",), "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS", "Duplicate option name", "command_options"))
        names.add(option.get("name"))
        if otype == 2:  # subcommand group
            if depth != 0:
                problems.append(Problem(p + ("type",), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Groups nest only one level", "command_nesting"))
            children = option.get("options") or []
            if any(c.get("type") != 1 for c in children):
                problems.append(Problem(p + ("options",), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Groups contain subcommands only", "command_nesting"))
            problems += _check_options(children, p + ("options",), depth + 1)
        elif otype == 1:  # subcommand
            children = option.get("options") or []
            if any(c.get("type") in (1, 2) for c in children):
                problems.append(Problem(p + ("options",), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Subcommands cannot nest", "command_nesting"))
            problems += _check_options(children, p + ("options",), depth + 1)
        else:
            if option.get("required"):
                if seen_optional:
                    problems.append(
                        Problem(p + ("required",), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "Required options must come first", "command_option_order")
                    )
            else:
                seen_optional = True
            choices = option.get("choices") or []
            if len(choices) > COMMAND_CHOICES_MAX:
                problems.append(
                    Problem(p + ("choices",), "BASE_TYPE_MAX_LENGTH", f"Must be {COMMAND_CHOICES_MAX} or fewer in length.", "command_choices")
                )
            if choices and option.get("autocomplete"):
                problems.append(Problem(p + ("autocomplete",), "AUTOCOMPLETE_AND_CHOICES", "autocomplete cannot be used with choices", "command_choices"))
            if choices and otype not in (3, 4, 10):
                problems.append(Problem(p + ("choices",), "CHOICES_INVALID", "Only string, integer and number options take choices", "command_choices"))
            for k, choice in enumerate(choices):
                problems += _check_choice(p + ("choices", k), choice, "command_choice")
    return problems


def check_commands(commands: Any) -> List[Problem]:
    """Validate a bulk-overwrite (PUT) payload of application commands."""
    if not isinstance(commands, list):
        return [Problem((), "BASE_TYPE_ARRAY", "Must be an array.", "command_payload")]
    problems: List[Problem] = []
    per_type: dict = {}
    keys = set()
    for i, command in enumerate(commands):
        ctype = command.get("type", 1)
        per_type[ctype] = per_type.get(ctype, 0) + 1
        key = (ctype, command.get("name"))
        if key in keys:
            problems.append(Problem((i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique", "command_duplicate"))
        keys.add(key)
        if ctype == 1:
            problems += _check_localized(command, (i,), True, True)
            problems += _check_options(command.get("options") or [], (i, "options"), 0)
            total = command_characters(command)
            if total > COMMAND_TOTAL_CHARS_MAX:
                problems.append(
                    Problem((i,), "APPLICATION_COMMAND_TOO_LARGE", f"Command exceeds maximum size ({total} > {COMMAND_TOTAL_CHARS_MAX})", "command_size")
                )
        elif ctype in (2, 3):
            problems += _check_localized(command, (i,), False, False)
            if command.get("description"):
                problems.append(Problem((i, "description"), "BASE_TYPE_MAX_LENGTH", "Context menu commands have no description", "command_description"))
            if command.get("options"):
                problems.append(Problem((i, "options"), "BASE_TYPE_MAX_LENGTH", "Context menu commands have no options", "command_options"))
        else:
            problems.append(Problem((i, "type"), "BASE_TYPE_CHOICES", f"Unsupported command type {ctype}", "command_type"))
    if per_type.get(1, 0) > CHAT_INPUT_COMMANDS_MAX:
        problems.append(Problem((), "APPLICATION_COMMANDS_TOO_MANY", f"Max {CHAT_INPUT_COMMANDS_MAX} chat input commands", "command_count"))
    for t in (2, 3):
        if per_type.get(t, 0) > CONTEXT_MENU_COMMANDS_MAX:
            problems.append(Problem((), "APPLICATION_COMMANDS_TOO_MANY", f"Max {CONTEXT_MENU_COMMANDS_MAX} commands of type {t}", "command_count"))
    return problems


# --------------------------------------------------------------------------- threads
def _thread_name_and_archive(payload: dict) -> List[Problem]:
    """What every new thread is checked for, a forum post too: its name and archive time."""
    problems: List[Problem] = []
    name = payload.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= THREAD_NAME_MAX:
        problems.append(Problem(("name",), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {THREAD_NAME_MAX} in length.", "thread_name"))
    duration = payload.get("auto_archive_duration")
    if duration is not None and duration not in AUTO_ARCHIVE_DURATIONS:
        problems.append(
            Problem(("auto_archive_duration",), "BASE_TYPE_CHOICES", "Value must be one of {60, 1440, 4320, 10080}.", "thread_archive_duration")
        )
    return problems


def check_thread_create(payload: dict, *, parent_type: int, from_message: bool) -> List[Problem]:
    problems = _thread_name_and_archive(payload)
    thread_type = payload.get("type", 11 if from_message else 12)
    if thread_type == 12:
        if from_message:
            problems.append(Problem(("type",), "BASE_TYPE_CHOICES", "Threads started from a message are public", "thread_type"))
        elif parent_type != 0:
            problems.append(Problem(("type",), "BASE_TYPE_CHOICES", "Private threads need a GUILD_TEXT parent", "thread_type"))
    # ``invitable`` is ignored by Discord for public threads (discord.py always sends it).
    return problems


# --------------------------------------------------------------------------- forums
# resources/channel: a forum has at most 20 tags ("available_tags … limited to 20"), a tag's
# name is at most 20 characters, a post carries at most 5 ("applied_tags … limited to 5")
FORUM_TAGS_MAX = 20
FORUM_TAG_NAME_MAX = 20
APPLIED_TAGS_MAX = 5


def check_applied_tags(tags: Any, known: Sequence[int], path: Tuple[Any, ...] = ("applied_tags",)) -> List[Problem]:
    """A post's applied_tags: a list of at most 5 ids, each one of the forum's tags."""
    if tags is None:
        return []
    if not isinstance(tags, list):
        return [Problem(path, "BASE_TYPE_ARRAY", "Must be an array.", "applied_tags")]
    problems: List[Problem] = []
    if len(tags) > APPLIED_TAGS_MAX:
        problems.append(Problem(path, "BASE_TYPE_MAX_LENGTH", f"Must be {APPLIED_TAGS_MAX} or fewer in length.",
                                "applied_tags_count"))
    for i, tag in enumerate(tags):
        if not str(tag).isdigit() or int(tag) not in known:
            problems.append(Problem(path + (i,), "TAG_INVALID", "Unknown tag.", "applied_tags_unknown"))
    return problems


def check_forum_post(payload: dict, known: Sequence[int], n_files: int) -> List[Problem]:
    """POST /channels/{forum}/threads (resources/channel, "Start Thread in Forum or Media
    Channel"): a name, the starter message (a message's own rules), the applied tags."""
    problems = _thread_name_and_archive(payload)
    message = payload.get("message")
    if not isinstance(message, dict):
        problems.append(Problem(("message",), "BASE_TYPE_REQUIRED", "This field is required", "forum_post_message"))
    else:
        problems += check_message(message, n_files=n_files, path=("message",))
    problems += check_applied_tags(payload.get("applied_tags"), known)
    return problems


def check_available_tags(tags: Any) -> List[Problem]:
    """PATCH /channels/{forum} available_tags: at most 20, each with a 1-20 character name
    and at most one of emoji_id and emoji_name. (Names repeated are Discord's 40061, not a
    form error: see the server.)"""
    path: Tuple[Any, ...] = ("available_tags",)
    if not isinstance(tags, list):
        return [Problem(path, "BASE_TYPE_ARRAY", "Must be an array.", "available_tags")]
    problems: List[Problem] = []
    if len(tags) > FORUM_TAGS_MAX:
        problems.append(Problem(path, "BASE_TYPE_MAX_LENGTH", f"Must be {FORUM_TAGS_MAX} or fewer in length.",
                                "available_tags_count"))
    for i, tag in enumerate(tags):
        if not isinstance(tag, dict):
            problems.append(Problem(path + (i,), "BASE_TYPE_DICT", "Must be a JSON object", "available_tags"))
            continue
        name = tag.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= FORUM_TAG_NAME_MAX:
            problems.append(Problem(path + (i, "name"), "BASE_TYPE_BAD_LENGTH",
                                    f"Must be between 1 and {FORUM_TAG_NAME_MAX} in length.", "tag_name"))
        if tag.get("emoji_id") and tag.get("emoji_name"):
            problems.append(Problem(path + (i,), "TAG_EMOJI_INVALID", "Only one of emoji_id and emoji_name may be set.",
                                    "tag_emoji"))
    return problems
