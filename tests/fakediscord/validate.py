"""Discord's message limits, enforced so that bot bugs show up in tests (400 50035 Invalid Form Body)."""

from __future__ import annotations

from typing import Any

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


def _check_custom_id(errs: FormErrors, path: tuple, comp: dict, seen: set[str]) -> None:
    cid = comp.get("custom_id")
    if cid is None:
        errs.add(path + ("custom_id",), "BASE_TYPE_REQUIRED", "This field is required")
        return
    _maxlen(errs, path + ("custom_id",), cid, 100, 1)
    if cid in seen:
        errs.add(path + ("custom_id",), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
    seen.add(cid)


def _check_interactive(errs: FormErrors, path: tuple, comp: dict, seen: set[str]) -> None:
    ctype = comp.get("type")
    if ctype == 2:
        style = comp.get("style", 1)
        if style == 5:
            if not comp.get("url"):
                errs.add(path + ("url",), "BASE_TYPE_REQUIRED", "This field is required")
            if "custom_id" in comp:
                errs.add(path + ("custom_id",), "BUTTON_COMPONENT_INVALID_URL", "A link button cannot have a custom_id")
        elif style != 6:
            _check_custom_id(errs, path, comp, seen)
        if comp.get("label") is not None:
            _maxlen(errs, path + ("label",), comp["label"], 80)
        if comp.get("label") is None and comp.get("emoji") is None and style != 6:
            errs.add(path, "BUTTON_COMPONENT_MISSING_LABEL", "A button needs a label or an emoji")
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
                errs.add(path + ("options",), "BASE_TYPE_BAD_LENGTH",
                         f"Must be between 1 and {MAX_SELECT_OPTIONS} in length.")
            values = set()
            for k, opt in enumerate(options):
                op = path + ("options", k)
                _maxlen(errs, op + ("label",), opt.get("label"), 100, 1)
                _maxlen(errs, op + ("value",), opt.get("value"), 100, 1)
                if opt.get("description") is not None:
                    _maxlen(errs, op + ("description",), opt["description"], 100)
                if opt.get("value") in values:
                    errs.add(op + ("value",), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                             "Select component option values must be unique")
                values.add(opt.get("value"))
            if len(options) and maxv > len(options):
                errs.add(path + ("max_values",), "BASE_TYPE_MAX", "max_values exceeds the number of options")
    elif ctype == 4:  # text input (modals)
        _check_custom_id(errs, path, comp, seen)


def check_components(errs: FormErrors, components: list[dict], flags: int, *, modal: bool = False) -> None:
    seen: set[str] = set()
    if flags & FLAG_COMPONENTS_V2:
        total = sum(1 for _ in walk_components(components))
        if total > MAX_V2_COMPONENTS:
            errs.add(("components",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_V2_COMPONENTS} or fewer in length.")
    elif not modal and len(components) > MAX_ROWS:
        errs.add(("components",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ROWS} or fewer in length.")
    for i, top in enumerate(components):
        _check_tree(errs, ("components", i), top, seen, flags, top_level=True, modal=modal)


def _check_tree(errs: FormErrors, path: tuple, comp: dict, seen: set[str], flags: int, *,
                top_level: bool, modal: bool) -> None:
    ctype = comp.get("type")
    if top_level and not (flags & FLAG_COMPONENTS_V2) and not modal and ctype != 1:
        errs.add(path + ("type",), "UNION_TYPE_CHOICES",
                 "Top-level components must be action rows unless the message uses components v2")
        return
    if ctype == 1:
        children = comp.get("components") or []
        buttons = [c for c in children if c.get("type") == 2]
        selects = [c for c in children if c.get("type") in SELECT_TYPES]
        inputs = [c for c in children if c.get("type") == 4]
        if not children:
            errs.add(path + ("components",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
        if selects and len(children) != 1:
            errs.add(path + ("components",), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                     "A select menu must be alone in its action row")
        if inputs and len(children) != 1:
            errs.add(path + ("components",), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                     "A text input must be alone in its action row")
        if len(buttons) > MAX_BUTTONS_PER_ROW:
            errs.add(path + ("components",), "BASE_TYPE_MAX_LENGTH",
                     f"Must be {MAX_BUTTONS_PER_ROW} or fewer in length.")
        for j, child in enumerate(children):
            if child.get("type") == 1:
                errs.add(path + ("components", j, "type"), "UNION_TYPE_CHOICES", "Action rows cannot nest")
                continue
            _check_interactive(errs, path + ("components", j), child, seen)
        return
    if ctype in (2, 4) or ctype in SELECT_TYPES:
        if not (flags & FLAG_COMPONENTS_V2) and not modal:
            errs.add(path + ("type",), "UNION_TYPE_CHOICES", "Interactive components must be in an action row")
        _check_interactive(errs, path, comp, seen)
        return
    if ctype == 10:
        _maxlen(errs, path + ("content",), comp.get("content"), 4000, 1)
    for key in ("components",):
        for j, child in enumerate(comp.get(key) or []):
            _check_tree(errs, path + (key, j), child, seen, flags, top_level=False, modal=modal)
    if isinstance(comp.get("accessory"), dict):
        _check_tree(errs, path + ("accessory",), comp["accessory"], seen, flags, top_level=False, modal=modal)
    if isinstance(comp.get("component"), dict):
        _check_tree(errs, path + ("component",), comp["component"], seen, flags, top_level=False, modal=modal)


def check_message(body: dict, files: list, *, existing: bool = False, final_attachments: int | None = None) -> None:
    """Validate a create/edit message body (already merged with files). Raises ApiError."""
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
    check_components(errs, components, flags)
    if flags & FLAG_COMPONENTS_V2 and (content or embeds):
        errs.add(("content",), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                 "The 'content' and 'embeds' fields cannot be used with components v2")
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
