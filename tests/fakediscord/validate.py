"""Discord's message limits, enforced so that bot bugs show up in tests (400 50035 Invalid Form Body)."""

from __future__ import annotations

import re
from typing import Any

import emoji as emoji_data

from .errors import ApiError
from .models import FLAG_COMPONENTS_V2, SELECT_TYPES, walk_components

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_FILES = 10
MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_SELECT_OPTIONS = 25
MAX_V2_COMPONENTS = 40
MAX_CHOICES = 25


class FormErrors:
    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}
        self.count = 0

    def add(self, path: tuple, code: str, message: str) -> None:
        node = self.tree
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
        self.count += 1

    def raise_if_any(self) -> None:
        if self.count:
            raise ApiError(400, 50035, "Invalid Form Body", errors=self.tree)


def _maxlen(errs: FormErrors, path: tuple, value: Any, limit: int, minimum: int = 0) -> None:
    if value is None:
        if minimum:
            errs.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        return
    if not isinstance(value, str):
        errs.add(path, "STRING_TYPE_CONVERT", "Could not interpret value as string.")
        return
    if len(value) > limit or len(value) < minimum:
        errs.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {minimum} and {limit} in length.")


def check_embeds(errs: FormErrors, embeds: list[dict], path: tuple = ("embeds",)) -> None:
    if len(embeds) > MAX_EMBEDS:
        errs.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length.")
    total = 0
    for i, e in enumerate(embeds):
        p = path + (i,)
        for key, limit in (("title", 256), ("description", 4096)):
            if e.get(key) is not None:
                _maxlen(errs, p + (key,), e[key], limit)
                total += len(str(e[key]))
        fields = e.get("fields", [])
        if len(fields) > 25:
            errs.add(p + ("fields",), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for j, f in enumerate(fields):
            _maxlen(errs, p + ("fields", j, "name"), f.get("name"), 256, 1)
            _maxlen(errs, p + ("fields", j, "value"), f.get("value"), 1024, 1)
            total += len(str(f.get("name", ""))) + len(str(f.get("value", "")))
        if e.get("footer"):
            _maxlen(errs, p + ("footer", "text"), e["footer"].get("text"), 2048)
            total += len(str(e["footer"].get("text") or ""))
        if e.get("author"):
            _maxlen(errs, p + ("author", "name"), e["author"].get("name"), 256)
            total += len(str(e["author"].get("name") or ""))
    if total > MAX_EMBED_TOTAL:
        errs.add(path, "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}")


def _check_emoji(errs: FormErrors, path: tuple, comp: dict) -> None:
    """A component's emoji: a custom one (an id), or a Unicode emoji as Discord spells it, fully
    qualified (↩️, not ↩): Discord answers 400 "Invalid emoji" to one it does not know."""
    emoji = comp.get("emoji")
    if not emoji or emoji.get("id"):
        return
    name = emoji.get("name") or ""
    data = emoji_data.EMOJI_DATA.get(name)
    if data is None or data.get("status") != emoji_data.STATUS["fully_qualified"]:
        errs.add(path + ("emoji", "name"), "BUTTON_COMPONENT_INVALID_EMOJI", f"Invalid emoji: {name!r}")


def _check_custom_id(errs: FormErrors, path: tuple, comp: dict, seen: set[str]) -> None:
    cid = comp.get("custom_id")
    if cid is None:
        errs.add(path + ("custom_id",), "BASE_TYPE_REQUIRED", "This field is required")
        return
    _maxlen(errs, path + ("custom_id",), cid, 100, 1)
    if cid in seen:
        errs.add(
            path + ("custom_id",),
            "COMPONENT_CUSTOM_ID_DUPLICATED",
            "Component custom id cannot be duplicated",
        )
    seen.add(cid)


def _check_interactive(errs: FormErrors, path: tuple, comp: dict, seen: set[str]) -> None:
    ctype = comp.get("type")
    if ctype == 2:
        style = comp.get("style", 1)
        if style == 5:
            if not comp.get("url"):
                errs.add(path + ("url",), "BASE_TYPE_REQUIRED", "This field is required")
            if "custom_id" in comp:
                errs.add(
                    path + ("custom_id",),
                    "BUTTON_COMPONENT_INVALID_URL",
                    "A link button cannot have a custom_id",
                )
        elif style != 6:
            _check_custom_id(errs, path, comp, seen)
        if comp.get("label") is not None:
            _maxlen(errs, path + ("label",), comp["label"], 80)
        if comp.get("label") is None and comp.get("emoji") is None and style != 6:
            errs.add(path, "BUTTON_COMPONENT_MISSING_LABEL", "A button needs a label or an emoji")
        _check_emoji(errs, path, comp)
    elif ctype in SELECT_TYPES:
        _check_custom_id(errs, path, comp, seen)
        if comp.get("placeholder") is not None:
            _maxlen(errs, path + ("placeholder",), comp["placeholder"], 150)
        minv, maxv = comp.get("min_values", 1), comp.get("max_values", 1)
        if not 0 <= minv <= 25:
            errs.add(path + ("min_values",), "NUMBER_TYPE_MAX", "min_values must be between 0 and 25")
        if not 1 <= maxv <= 25 or maxv < minv:
            errs.add(path + ("max_values",), "NUMBER_TYPE_MAX", "max_values must be between 1 and 25")
        if ctype == 3:
            options = comp.get("options") or []
            if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
                errs.add(
                    path + ("options",),
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be between 1 and {MAX_SELECT_OPTIONS} in length.",
                )
            values = set()
            for k, opt in enumerate(options):
                op = path + ("options", k)
                _maxlen(errs, op + ("label",), opt.get("label"), 100, 1)
                _maxlen(errs, op + ("value",), opt.get("value"), 100, 1)
                if opt.get("description") is not None:
                    _maxlen(errs, op + ("description",), opt["description"], 100)
                _check_emoji(errs, op, opt)
                if opt.get("value") in values:
                    errs.add(
                        op + ("value",),
                        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                        "Select component option values must be unique",
                    )
                values.add(opt.get("value"))
            if len(options) and maxv > len(options):
                errs.add(path + ("max_values",), "BASE_TYPE_MAX", "max_values exceeds the number of options")
    elif ctype == 4:  # text input (modals)
        _check_custom_id(errs, path, comp, seen)


V2_TOP_LEVEL = (
    1,
    9,
    10,
    12,
    13,
    14,
    17,
)  # action row, section, text display, media gallery, file, separator, container
CONTAINER_CHILDREN = (1, 9, 10, 12, 13, 14)
MODAL_TOP_LEVEL = (1, 10, 18)  # action row (deprecated, text inputs), text display, label
LABEL_CHILDREN = (3, 4, 5, 6, 7, 8, 19, 21, 22, 23)
MAX_V2_TEXT = 4000
MAX_GALLERY_ITEMS = 10
_NAMES = {
    1: "action row",
    2: "button",
    3: "string select",
    4: "text input",
    9: "section",
    10: "text display",
    11: "thumbnail",
    12: "media gallery",
    13: "file",
    14: "separator",
    17: "container",
    18: "label",
}


def _bad_type(errs: FormErrors, path: tuple, message: str) -> None:
    errs.add(path + ("type",), "UNION_TYPE_CHOICES", message)


def check_components(
    errs: FormErrors,
    components: list[dict],
    flags: int,
    *,
    modal: bool = False,
    attachment_names: set[str] | None = None,
) -> None:
    """Validate a component tree. With IS_COMPONENTS_V2 (flags & 1<<15): the v2 top-level types, at most 40
    components counted through the whole tree (as discord.py's LayoutView counts them) and at most 4000
    characters across all text displays. attachment_names: the files the message will carry (for
    `attachment://name` media); None skips that check."""
    seen: set[str] = set()
    v2 = bool(flags & FLAG_COMPONENTS_V2)
    if not isinstance(components, list):
        errs.add(("components",), "LIST_TYPE_CONVERT", "Must be an array.")
        return
    if v2:
        all_comps = list(walk_components(components))
        if len(all_comps) > MAX_V2_COMPONENTS:
            errs.add(
                ("components",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_V2_COMPONENTS} or fewer in length."
            )
        text = sum(
            len(c["content"]) for c in all_comps if c.get("type") == 10 and isinstance(c.get("content"), str)
        )
        if text > MAX_V2_TEXT:
            errs.add(
                ("components",),
                "COMPONENTS_V2_TEXT_LENGTH_EXCEEDED",
                f"The total length of text display content must be {MAX_V2_TEXT} or fewer characters "
                f"(got {text}).",
            )
        ids = [c["id"] for c in all_comps if c.get("id")]
        if len(ids) != len(set(ids)):
            errs.add(("components",), "COMPONENT_ID_DUPLICATED", "Component ids must be unique in a message")
    elif not modal and len(components) > MAX_ROWS:
        errs.add(("components",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ROWS} or fewer in length.")
    ctx = _Ctx(errs, seen, v2, modal, attachment_names)
    for i, top in enumerate(components):
        path = ("components", i)
        if not isinstance(top, dict):
            errs.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
            continue
        ctype = top.get("type")
        if modal:
            allowed = MODAL_TOP_LEVEL
        elif v2:
            allowed = V2_TOP_LEVEL
        else:
            allowed = (1,)
        if ctype not in allowed:
            if not v2 and not modal and ctype in V2_TOP_LEVEL + (2, 3, 5, 6, 7, 8, 11):
                why = "Top-level components must be action rows unless the message uses components v2 (flag 32768)"
            else:
                why = f"A {_NAMES.get(ctype, f'type {ctype}')} cannot be a top-level component here"
            _bad_type(errs, path, why)
            continue
        _check_tree(ctx, path, top)


class _Ctx:
    def __init__(
        self, errs: FormErrors, seen: set[str], v2: bool, modal: bool, attachment_names: set[str] | None
    ) -> None:
        self.errs, self.seen, self.v2, self.modal, self.names = errs, seen, v2, modal, attachment_names


def _check_media(ctx: _Ctx, path: tuple, media: Any, *, attachment_only: bool = False) -> None:
    if not isinstance(media, dict) or not media.get("url"):
        ctx.errs.add(
            path + ("url",) if isinstance(media, dict) else path,
            "BASE_TYPE_REQUIRED",
            "This field is required",
        )
        return
    url = media["url"]
    if not isinstance(url, str):
        ctx.errs.add(path + ("url",), "STRING_TYPE_CONVERT", "Could not interpret value as string.")
        return
    if url.startswith("attachment://"):
        name = url[len("attachment://") :]
        if ctx.names is not None and name not in ctx.names:
            ctx.errs.add(
                path + ("url",),
                "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                f"The attachment {name!r} is not attached to this message",
            )
    elif attachment_only:
        ctx.errs.add(
            path + ("url",),
            "UNFURLED_MEDIA_ITEM_INVALID_PROTOCOL",
            "A file component only supports attachment:// urls",
        )
    elif not url.startswith(("http://", "https://")):
        ctx.errs.add(path + ("url",), "URL_TYPE_INVALID_URL", "Not a well formed URL.")


def _check_tree(ctx: _Ctx, path: tuple, comp: dict) -> None:
    errs = ctx.errs
    ctype = comp.get("type")
    if ctype == 1:
        children = comp.get("components") or []
        buttons = [c for c in children if c.get("type") == 2]
        selects = [c for c in children if c.get("type") in SELECT_TYPES]
        inputs = [c for c in children if c.get("type") == 4]
        if not children:
            errs.add(path + ("components",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
        if selects and len(children) != 1:
            errs.add(
                path + ("components",),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "A select menu must be alone in its action row",
            )
        if inputs and len(children) != 1:
            errs.add(
                path + ("components",),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "A text input must be alone in its action row",
            )
        if len(buttons) > MAX_BUTTONS_PER_ROW:
            errs.add(
                path + ("components",),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_BUTTONS_PER_ROW} or fewer in length.",
            )
        for j, child in enumerate(children):
            ct = child.get("type")
            if ct == 2 or ct in SELECT_TYPES or (ct == 4 and ctx.modal):
                _check_interactive(errs, path + ("components", j), child, ctx.seen)
            else:
                _bad_type(
                    errs,
                    path + ("components", j),
                    f"An action row holds buttons or one select, not a {_NAMES.get(ct, f'type {ct}')}",
                )
        return
    if ctype in (2, 4) or ctype in SELECT_TYPES:  # only reachable as a label's child or a section accessory
        _check_interactive(errs, path, comp, ctx.seen)
        return
    if ctype == 10:
        _maxlen(errs, path + ("content",), comp.get("content"), MAX_V2_TEXT, 1)
        return
    if ctype == 9:
        children = comp.get("components") or []
        if not 1 <= len(children) <= 3:
            errs.add(path + ("components",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 3 in length.")
        for j, child in enumerate(children):
            if child.get("type") != 10:
                _bad_type(errs, path + ("components", j), "A section holds only text displays")
            else:
                _check_tree(ctx, path + ("components", j), child)
        acc = comp.get("accessory")
        if not isinstance(acc, dict):
            errs.add(path + ("accessory",), "BASE_TYPE_REQUIRED", "This field is required")
        elif acc.get("type") == 2:
            _check_interactive(errs, path + ("accessory",), acc, ctx.seen)
        elif acc.get("type") == 11:
            _check_tree(ctx, path + ("accessory",), acc)
        else:
            _bad_type(errs, path + ("accessory",), "A section accessory is a button or a thumbnail")
        return
    if ctype == 11:
        _check_media(ctx, path + ("media",), comp.get("media"))
        if comp.get("description") is not None:
            _maxlen(errs, path + ("description",), comp["description"], 1024)
        return
    if ctype == 12:
        items = comp.get("items")
        if not isinstance(items, list) or not 1 <= len(items) <= MAX_GALLERY_ITEMS:
            errs.add(
                path + ("items",),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MAX_GALLERY_ITEMS} in length.",
            )
            items = items if isinstance(items, list) else []
        for j, item in enumerate(items):
            if not isinstance(item, dict):
                errs.add(
                    path + ("items", j), "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"
                )
                continue
            _check_media(ctx, path + ("items", j, "media"), item.get("media"))
            if item.get("description") is not None:
                _maxlen(errs, path + ("items", j, "description"), item["description"], 1024)
        return
    if ctype == 13:
        _check_media(ctx, path + ("file",), comp.get("file"), attachment_only=True)
        return
    if ctype == 14:
        if comp.get("spacing", 1) not in (1, 2):
            errs.add(path + ("spacing",), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
        if not isinstance(comp.get("divider", True), bool):
            errs.add(path + ("divider",), "BOOLEAN_TYPE_CONVERT", "Must be either true or false.")
        return
    if ctype == 17:
        accent = comp.get("accent_color")
        if accent is not None and (
            not isinstance(accent, int) or isinstance(accent, bool) or not 0 <= accent <= 0xFFFFFF
        ):
            errs.add(
                path + ("accent_color",),
                "NUMBER_TYPE_MAX",
                "Must be an RGB integer from 0 to 16777215 or null",
            )
        if not isinstance(comp.get("spoiler", False), bool):
            errs.add(path + ("spoiler",), "BOOLEAN_TYPE_CONVERT", "Must be either true or false.")
        children = comp.get("components")
        if not isinstance(children, list) or not children:
            errs.add(path + ("components",), "BASE_TYPE_REQUIRED", "A container needs at least one component")
            children = children if isinstance(children, list) else []
        for j, child in enumerate(children):
            ct = child.get("type")
            if ct not in CONTAINER_CHILDREN:
                _bad_type(
                    errs,
                    path + ("components", j),
                    f"A container cannot hold a {_NAMES.get(ct, f'type {ct}')}",
                )
            else:
                _check_tree(ctx, path + ("components", j), child)
        return
    if ctype == 18:
        _maxlen(errs, path + ("label",), comp.get("label"), 45, 1)
        if comp.get("description") is not None:
            _maxlen(errs, path + ("description",), comp["description"], 100)
        inner = comp.get("component")
        if not isinstance(inner, dict):
            errs.add(path + ("component",), "BASE_TYPE_REQUIRED", "This field is required")
        elif inner.get("type") not in LABEL_CHILDREN:
            _bad_type(errs, path + ("component",), "A label wraps one input component")
        else:
            _check_interactive(errs, path + ("component",), inner, ctx.seen)
        return
    _bad_type(errs, path, f"Unknown or unsupported component type {ctype!r}")


def check_message(
    body: dict,
    files: list,
    *,
    existing: bool = False,
    final_attachments: int | None = None,
    attachment_names: set[str] | None = None,
) -> None:
    """Validate a create/edit message body (already merged with files). Raises ApiError.
    attachment_names: filenames the message will carry, for v2 `attachment://` media (None: not checked)."""
    errs = FormErrors()
    flags = int(body.get("flags") or 0)
    content = body.get("content")
    if content is not None:
        _maxlen(errs, ("content",), content, MAX_CONTENT)
    embeds = body.get("embeds") or []
    if body.get("embed"):
        embeds = [body["embed"]]
    check_embeds(errs, embeds)
    components = body.get("components") or []
    check_components(errs, components, flags, attachment_names=attachment_names)
    if flags & FLAG_COMPONENTS_V2:
        for key, present in (
            ("content", content),
            ("embeds", embeds),
            ("poll", body.get("poll")),
            ("sticker_ids", body.get("sticker_ids")),
        ):
            if present:
                errs.add(
                    (key,),
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    f"The '{key}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
                )
    am = body.get("allowed_mentions")
    if isinstance(am, dict):
        for kind in ("users", "roles"):
            if kind in (am.get("parse") or []) and am.get(kind):
                errs.add(
                    ("allowed_mentions", kind),
                    "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.',
                )
    if len(files) > MAX_FILES:
        errs.add(("files",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_FILES} or fewer in length.")
    errs.raise_if_any()
    for f in files:
        if len(f["data"]) > MAX_FILE_BYTES:
            raise ApiError(413, 40005, "Request entity too large")
    if not existing:
        n_att = final_attachments if final_attachments is not None else len(files)
        if not (content or embeds or components or n_att or body.get("sticker_ids") or body.get("poll")):
            raise ApiError(400, 50006, "Cannot send an empty message")


def check_modal(data: dict) -> None:
    errs = FormErrors()
    _maxlen(errs, ("data", "custom_id"), data.get("custom_id"), 100, 1)
    _maxlen(errs, ("data", "title"), data.get("title"), 45, 1)
    comps = data.get("components") or []
    if not 1 <= len(comps) <= 5:
        errs.add(("data", "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
    check_components(errs, comps, 0, modal=True)
    errs.raise_if_any()


def check_choices(choices: list[dict]) -> None:
    errs = FormErrors()
    if len(choices) > MAX_CHOICES:
        errs.add(("data", "choices"), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CHOICES} or fewer in length.")
    for i, ch in enumerate(choices):
        _maxlen(errs, ("data", "choices", i, "name"), ch.get("name"), 100, 1)
        if isinstance(ch.get("value"), str):
            _maxlen(errs, ("data", "choices", i, "value"), ch.get("value"), 100, 1)
    errs.raise_if_any()


# Discord's locales (API docs, Reference › Locales): the keys a command's localizations may use
LOCALES = frozenset(
    "id da de en-GB en-US es-ES es-419 fr hr it lt hu nl no pl pt-BR ro fi sv-SE vi tr cs el bg ru uk hi "
    "th zh-CN ja zh-TW ko".split()
)
# a CHAT_INPUT command's or option's name, in any language (API docs, Application Commands › Naming)
_NAME = re.compile(r"^[-_'\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")


def _check_localized(errs: FormErrors, path: tuple, values: Any, *, name: bool, limit: int) -> None:
    if values is None:
        return
    if not isinstance(values, dict):
        errs.add(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return
    for locale, value in values.items():
        where = (*path, locale)
        if locale not in LOCALES:
            errs.add(where, "LOCALE_INVALID", f"Invalid locale {locale!r}")
        elif name and (not isinstance(value, str) or not _NAME.fullmatch(value) or value != value.lower()):
            errs.add(where, "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {value!r}")
        else:
            _maxlen(errs, where, value, limit, 1)


def check_command_localizations(cmd: dict) -> None:
    """A slash command's ``name_localizations`` and ``description_localizations``, its options' (and
    their options', for subcommands) and its choices' ``name_localizations``: known locales, names that
    are one lowercase word of at most 32 characters, descriptions and choice names of 1 to 100. A name
    given twice in one language among an option list is refused too."""
    errs = FormErrors()

    def walk(node: dict, path: tuple, slash: bool) -> None:
        _check_localized(
            errs, (*path, "name_localizations"), node.get("name_localizations"), name=slash, limit=32
        )
        _check_localized(
            errs,
            (*path, "description_localizations"),
            node.get("description_localizations"),
            name=False,
            limit=100,
        )
        for j, choice in enumerate(node.get("choices") or []):
            _check_localized(
                errs,
                (*path, "choices", j, "name_localizations"),
                choice.get("name_localizations"),
                name=False,
                limit=100,
            )
        options = node.get("options") or []
        for locale in LOCALES:
            names = [(o.get("name_localizations") or {}).get(locale, o.get("name")) for o in options]
            if len(set(names)) != len(names):
                errs.add(
                    (*path, "options"),
                    "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                    f"Duplicate option names in {locale}",
                )
        for i, option in enumerate(options):
            walk(option, (*path, "options", i), slash)

    walk(cmd, (), cmd.get("type", 1) == 1)
    if _size(cmd) > MAX_COMMAND_CHARS:
        errs.add((), "APPLICATION_COMMAND_TOO_LARGE", f"Command exceeds maximum size ({MAX_COMMAND_CHARS})")
    errs.raise_if_any()


MAX_COMMAND_CHARS = 8000


def _longest(node: dict, field: str) -> int:
    """A field's length as Discord counts it: its longest localisation, the default one included."""
    values = [str(node.get(field) or ""), *map(str, (node.get(f"{field}_localizations") or {}).values())]
    return max(len(v) for v in values)


def _size(node: dict) -> int:
    """The characters of a command's names, descriptions and choices' names and values, its options' and
    subcommands' included: at most 8000 (API docs, Application Commands › Limits)."""
    total = _longest(node, "name") + _longest(node, "description")
    for choice in node.get("choices") or []:
        total += _longest(choice, "name") + len(str(choice.get("value", "")))
    return total + sum(_size(option) for option in node.get("options") or [])
