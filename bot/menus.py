"""Cascading menus built from a game's legal actions.

A game tells, through ``action_path(seat, action)``, how its actions group:
e.g. ``[("ship:b3a", "3-ship at C4"), ("t:E:2", "travel east 2 → E4")]``.
The host turns the legal actions into a tree and shows one level at a time.
A choice is addressed by the indices taken from the root ("prefix"), which
are stable for a given game version: the same version gives the same tree.
A level is shown as buttons when few, else as up to ``SELECTS`` selects of ``OPTIONS`` options each;
a level with more than ``PAGE`` entries is paged. On a level that holds groups, its few entries that
play at once (a "Submit", an "End turn") are buttons beside the selects (``Level.buttons``), on every
page: one click, never an option buried on a page.

An entry whose action holds an open choice (bot/games/base.py: ``{"choose": [...], "min", "max"}``, e.g.
the ships a Refuse Battle moves) opens one multi-select of the candidates (:func:`choice_level`); the
picks answer it (:func:`answer`) and the whole move is applied at once. A choice of more than
``OPTIONS`` candidates is not shown so: its entry applies the action as listed, and the game asks
for the choice step by step.
"""

from __future__ import annotations

import hashlib
import marshal
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field

from bot import metrics
from bot.games import Game, canonical, fill_names
from bot.games.base import choice_fields, fits
from bot.games.phrase import ENGLISH, Voice

OPTIONS = 25  # options per select (Discord's limit)
SELECTS = 4  # selects per message: one action row each, the fifth row is for buttons
PAGE = SELECTS * OPTIONS - 2  # entries per page, leaving room for "previous" / "more"
ACTION_BUTTONS = 3  # at most this many entries that play at once become buttons (with Back, My view: 5)
# Menus no longer ask to confirm; a prefix ending in CONFIRM comes from an old "✅ Confirm" button
# still in the chat, which the host answers as out of date.
CONFIRM = -1


@dataclass
class Node:
    key: str
    label: str
    children: list[Node] = field(default_factory=list)
    action: dict | None = None  # at a leaf: the (first) action it plays
    then: list[dict] = field(default_factory=list)  # actions applied after it by the same choice
    description: str = ""  # shown under the label in a select

    @property
    def steps(self) -> list[dict]:
        return [] if self.action is None else [self.action, *self.then]


@dataclass
class Level:
    """One menu: a title, the entries on this page, and whether pages exist."""

    title: str
    prefix: tuple[int, ...]
    entries: list[tuple[int, str]]  # (child index, label)
    page: int
    pages: int
    breadcrumb: list[str]
    back: tuple[int, ...] | None = None  # the previous level with a real choice, if any
    digest: str = ""  # fingerprint of the menu tree, only while several seats choose at once
    descriptions: dict[int, str] = field(default_factory=dict)  # child index -> text under its label
    buttons: list[tuple[int, str]] = field(default_factory=list)  # (child index, label): play at once
    # A multi-select of an open choice (entries = its candidates): how many may be picked, and the
    # label of the button that picks none ("" when at least one must be picked).
    choose: tuple[int, int] | None = None
    none_label: str = ""


def split_buttons(node: Node) -> tuple[list[int], list[int]]:
    """The children of ``node`` as (entries, buttons), by child index: on a level that holds groups,
    up to ``ACTION_BUTTONS`` entries that play at once (leaves without a description) are buttons."""
    leaves = [i for i, c in enumerate(node.children) if c.action is not None and not c.description]
    if len(leaves) == len(node.children) or len(leaves) > ACTION_BUTTONS:
        return list(range(len(node.children))), []
    return [i for i in range(len(node.children)) if i not in leaves], leaves


def _merge_single_leaves(node: Node, shape: Node | None = None) -> None:
    """A group whose only entry is a leaf that names the group ("Refuse Battle" holding "Refuse
    Battle: bring ships out of Port") becomes that leaf: one click instead of two. ``shape``: the same
    tree in English, merged, which decides (its labels are the source's): a group where it has a leaf
    becomes that leaf."""
    for n, child in enumerate(node.children):
        if shape is not None:
            english = shape.children[n]
            if english.action is None or child.action is not None:
                _merge_single_leaves(child, english)
                continue
            leaf = child
            while leaf.action is None and len(leaf.children) == 1:
                leaf = leaf.children[0]
        else:
            _merge_single_leaves(child)
            if not (
                child.action is None
                and len(child.children) == 1
                and child.children[0].action is not None
                and not child.children[0].children
                and child.label.lower() in child.children[0].label.lower()
            ):
                continue
            leaf = child.children[0]
        node.children[n] = Node(child.key, leaf.label, [], leaf.action, leaf.then, leaf.description)


# The trees built lately, by position (the game, its options, the state as it stands, the seat and the
# names): a move's clicks (on the host's cached engine) and its publish (on an engine of its own: the
# table's controls, each DM's menu and its digest) ask for the same tree several times, and building it
# is most of a move's engine time. Keyed by the state's content (its marshal bytes, fast), so that an
# engine changed in any way (a move applied, a position put in place) never finds another position's
# tree. Two engines of one stored snapshot may marshal apart (key order), so an engine built from or
# committed as a snapshot is told so (``same_as``): while its state is unchanged, it goes by the snapshot.
# Besides, each engine keeps the trees of its current position for as long as it lives (the host's
# cached engine of a running game: its clicks find them even when many games pushed them out of the
# shared ones).
_trees: OrderedDict[bytes, Node] = OrderedDict()
TREES = 1024  # kept at most (a tree is 10-40 KiB)
_snapshots: weakref.WeakKeyDictionary[Game, tuple[bytes, bytes]] = weakref.WeakKeyDictionary()
_own: weakref.WeakKeyDictionary[Game, tuple[bytes, dict[bytes, Node]]] = weakref.WeakKeyDictionary()
# the read-only engines' state digests, with the mark of the state they are of (``same_as``)
_read_only: weakref.WeakKeyDictionary[Game, tuple[tuple[int, int], bytes]] = weakref.WeakKeyDictionary()


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


def _state_digest(game: Game) -> bytes:
    known = _read_only.get(game)
    if known is not None and known[0] == (id(game.state), game.applied):
        return known[1]
    # The state is plain JSON data (Game.apply snapshots it with marshal too). Format 2 writes no
    # references: the bytes do not depend on who else holds a part of the state (a view, a menu).
    return _digest(marshal.dumps(game.state, 2))


def same_as(game: Game, snapshot: str, state: bytes | None = None, *, read_only: bool = False) -> None:
    """``game`` holds the position of ``snapshot`` (its ``to_json`` text, as stored): until its state
    changes, its trees are those of every engine of that snapshot. ``state``: ``game.state``'s marshal
    bytes (format 2), when at hand. ``read_only``: nothing changes this engine's state in place (the
    publisher's engines, copied for reading), so its digest is not read again while no move is applied
    to it and no other state put in place; an engine that tests or the host may set up in place is
    read again each time."""
    state_digest = _digest(state) if state is not None else _state_digest(game)
    _snapshots[game] = (state_digest, _digest(snapshot.encode()))
    if read_only:
        _read_only[game] = ((id(game.state), game.applied), state_digest)


def share_trees(reader: Game, owner: Game) -> None:
    """The trees ``reader`` builds in its position are ``owner``'s too while ``owner`` is in that same
    position: the publisher's copy and the host's cached engine it was copied from. The clicks after a
    publish then find the tree its DMs were drawn with, however many other games' trees pushed it out
    of the shared ones meanwhile (with 500 games at once, one tree in two or so)."""
    state = _state_digest(reader)
    own = _own.get(owner)
    if own is None or own[0] != state:
        own = (state, {})
        if _snapshots.get(owner, (b"",))[0] == state:
            # the owner as it was cached (same_as): its own next tree checks its state again anyway
            _own[owner] = own
    _own[reader] = own


def language_of(speaker: Voice) -> str:
    """The language a tree's labels are in (a key of the trees kept): bot.i18n.Speaker names it."""
    return str(getattr(speaker, "language", "en"))


def in_language(speaker: Voice) -> dict:
    """The keyword a game's text function (menu entries, titles, prompt, key, text board) takes for a
    reader other than English; none for English, the functions' default (so a game, or a test's stand-in,
    that says nothing but English needs no keyword)."""
    return {} if language_of(speaker) == "en" else {"speaker": speaker}


def _position(game: Game, seat: int, names: list[str] | None, language: str = "en") -> tuple[bytes, bytes]:
    """(the engine's state, the position of the tree asked for), as digests."""
    state = _state_digest(game)
    known = _snapshots.get(game)
    shared = known[1] if known is not None and known[0] == state else state
    # Format 2, as for the state: later formats mark interned strings apart, so a language or a name
    # built at run time ("en" from "en-US") would key another tree than the same word written in code.
    return state, _digest(
        marshal.dumps((game.key, game.players, canonical(game.options), seat, names, language), 2) + shared
    )


def build_tree(game: Game, seat: int, names: list[str] | None = None, speaker: Voice = ENGLISH) -> Node:
    """The tree of the seat's legal actions. ``root.key`` is a short fingerprint of the whole tree:
    two trees with the same fingerprint offer the same actions at the same menu positions.
    Labels name seats with the players' ``names`` (the seats' colours without them), in the language of
    ``speaker``; the tree's shape is the same in every language (a click made on a menu in one language
    means the same entry in the tree of another).
    Built once per position, seat, names and language: the tree returned is shared, never to be changed."""
    language = language_of(speaker)
    state, position = _position(game, seat, names, language)
    own = _own.get(game)
    if own is None or own[0] != state:
        own = _own[game] = (state, {})  # (the trees of its former position go)
    tree = own[1].get(position)
    if tree is not None:
        return tree
    tree = _trees.get(position)
    if tree is None:
        shape = None if language == "en" else build_tree(game, seat, names)
        tree = _trees[position] = _build_tree(game, seat, names, speaker, shape)
        while len(_trees) > TREES:
            _trees.popitem(last=False)
    else:
        _trees.move_to_end(position)
    own[1][position] = tree
    return tree


def _build_tree(
    game: Game, seat: int, names: list[str] | None, speaker: Voice = ENGLISH, shape: Node | None = None
) -> Node:
    """The tree in the language of ``speaker``; ``shape``: the English tree, whose labels decide which
    groups merge (a label's words differ by language, the menu's shape must not)."""
    with metrics.cpu("engine"):
        root = Node("", "")
        actions = None
        if shape is not None:
            root.key = shape.key
        else:
            actions = game.legal_actions(seat)  # (listed once: the entries below are made from them)
            root.key = hashlib.blake2s(canonical(actions).encode(), digest_size=4).hexdigest()
        # each node's children by key, while the tree is built: a level of n entries in n look-ups,
        # not n²/2 comparisons (Warships' levels hold a unit's every target)
        children: dict[tuple[int, str], Node] = {}
        for steps, path in game.menu_entries(seat, legal=actions, **in_language(speaker)):
            node = root
            for depth, step in enumerate(path):
                key, label = step[0], step[1]
                child = children.get((id(node), key))
                if child is None:
                    child = Node(
                        key,
                        fill_names(label, names)[:100],
                        description=fill_names(step[2], names)[:100] if len(step) > 2 else "",
                    )
                    node.children.append(child)
                    children[(id(node), key)] = child
                node = child
                if depth == len(path) - 1:
                    node.action, node.then = steps[0], list(steps[1:])
        _merge_single_leaves(root, shape)
    return root


def walk(root: Node, prefix: tuple[int, ...]) -> tuple[Node, list[str]] | None:
    """The node at ``prefix`` and the labels on the way, or None if the prefix is gone."""
    node, crumbs = root, []
    for i in prefix:
        if not (0 <= i < len(node.children)):
            return None
        node = node.children[i]
        crumbs.append(node.label)
    return node, crumbs


def collapse(root: Node, prefix: tuple[int, ...]) -> tuple[int, ...]:
    """Follow single-child levels down, so nobody is asked to pick a group of one; stop above a
    leaf, so that an action is never applied without the player having clicked it."""
    found = walk(root, prefix)
    if found is None:
        return prefix
    node = found[0]
    while node.action is None and len(node.children) == 1 and node.children[0].action is None:
        prefix = prefix + (0,)
        node = node.children[0]
    return prefix


def level(
    game: Game,
    seat: int,
    root: Node,
    prefix: tuple[int, ...],
    page: int = 0,
    names: list[str] | None = None,
    speaker: Voice = ENGLISH,
) -> Level | None:
    found = walk(root, prefix)
    if found is None:
        return None
    node, crumbs = found
    titles = game.menu_titles(seat, **in_language(speaker)) or [speaker.gettext("Choose")]
    title = fill_names(titles[min(len(prefix), len(titles) - 1)], names)
    listed, buttons = split_buttons(node)
    pages = max(1, -(-len(listed) // PAGE))
    page = max(0, min(page, pages - 1))
    shown = [(i, node.children[i]) for i in listed[page * PAGE : (page + 1) * PAGE]]
    back = collapse_back(root, prefix)
    return Level(
        title=title,
        prefix=prefix,
        entries=[(i, c.label) for i, c in shown],
        page=page,
        pages=pages,
        breadcrumb=crumbs,
        back=back,
        digest=root.key if len(game.to_act()) > 1 else "",
        descriptions={i: c.description for i, c in shown if c.description},
        buttons=[(i, node.children[i].label) for i in buttons],
    )


def collapse_back(root: Node, prefix: tuple[int, ...]) -> tuple[int, ...] | None:
    """The nearest level above ``prefix`` that offers a real choice."""
    for cut in range(len(prefix) - 1, -1, -1):
        parent = walk(root, prefix[:cut])
        if parent is not None and len(parent[0].children) > 1:
            return prefix[:cut]
    return None


def open_level(
    game: Game,
    seat: int,
    prefix: tuple[int, ...] = (),
    page: int = 0,
    names: list[str] | None = None,
    speaker: Voice = ENGLISH,
) -> Level | None:
    """The menu a seat sees at ``prefix`` (single-entry groups skipped), in the language of ``speaker``;
    None if the prefix is gone."""
    root = build_tree(game, seat, names, speaker)
    return level(game, seat, root, collapse(root, prefix), page, names=names, speaker=speaker)


def choice_of(node: Node) -> tuple[str, dict] | None:
    """The open choice that a leaf's last step leaves to one multi-select, as (field, choice); None
    when there is none, or too many candidates for one select (then the game asks step by step)."""
    if node.action is None:
        return None
    fields = choice_fields(node.steps[-1])
    if len(fields) != 1:
        return None
    ((name, choice),) = fields.items()
    return (name, choice) if 0 < len(choice["choose"]) <= OPTIONS else None


def choice_level(
    game: Game,
    seat: int,
    root: Node,
    prefix: tuple[int, ...],
    names: list[str] | None = None,
    speaker: Voice = ENGLISH,
) -> Level | None:
    """The multi-select of the choice at the leaf ``prefix`` (None if that leaf has none)."""
    found = walk(root, prefix)
    open_choice = choice_of(found[0]) if found is not None else None
    if found is None or open_choice is None:
        return None
    node, crumbs = found
    choice = open_choice[1]
    menu = game.choice_menu(seat, node.steps[-1], **in_language(speaker))
    entries = [(i, fill_names(label, names)[:100]) for i, (label, _) in enumerate(menu.options)]
    return Level(
        title=fill_names(menu.title, names),
        prefix=prefix,
        entries=entries,
        page=0,
        pages=1,
        breadcrumb=crumbs,
        back=collapse_back(root, prefix),
        digest=root.key if len(game.to_act()) > 1 else "",
        descriptions={i: fill_names(d, names)[:100] for i, (_, d) in enumerate(menu.options) if d},
        choose=(choice["min"], min(choice["max"], len(entries))),
        none_label=fill_names(menu.none_label, names)[:80] if choice["min"] == 0 else "",
    )


def answer(node: Node, picks: list[int]) -> list[dict] | None:
    """The steps of a choice leaf with its choice answered by ``picks`` (candidate indices, each once,
    as many as the choice allows; taken in the candidates' order), or None if they do not fit."""
    found = choice_of(node)
    if found is None:
        return None
    name, choice = found
    candidates = choice["choose"]
    if len(set(picks)) != len(picks) or not all(0 <= i < len(candidates) for i in picks):
        return None
    if not choice["min"] <= len(picks) <= choice["max"]:
        return None
    steps = node.steps
    return [*steps[:-1], {**steps[-1], name: [candidates[i] for i in sorted(picks)]}]


def encode_prefix(prefix: tuple[int, ...]) -> str:
    return ".".join(map(str, prefix)) or "-"


def decode_prefix(text: str) -> tuple[int, ...]:
    if text in ("", "-"):
        return ()
    return tuple(int(p) for p in text.split("."))


def leaves(root: Node) -> list[tuple[tuple[int, ...], Node, list[str]]]:
    """Every leaf of the tree: (prefix, node, labels on the way)."""
    out = []

    def visit(node: Node, prefix: tuple[int, ...], crumbs: list[str]) -> None:
        if node.action is not None:
            out.append((prefix, node, crumbs))
        for i, child in enumerate(node.children):
            visit(child, prefix + (i,), crumbs + [child.label])

    visit(root, (), [])
    return out


def find_leaf(root: Node, action: dict) -> tuple[tuple[int, ...], Node, list[str]] | None:
    """The first leaf that plays ``action`` (as its first step), e.g. the menu entry of an AI's move."""
    key = canonical(action)
    return next((found for found in leaves(root) if canonical(found[1].action) == key), None)


def clicks(root: Node, prefix: tuple[int, ...]) -> int:
    """Clicks from the root menu to the entry at ``prefix``: one per level with a real choice
    (levels of one group are skipped, see ``collapse``), plus the page turns of long selects."""
    node, n = root, 0
    for i in prefix:
        child = node.children[i]
        if len(node.children) > 1 or child.action is not None:
            listed, _ = split_buttons(node)
            n += 1 + (listed.index(i) // PAGE if i in listed else 0)
        node = child
    return n


INLINE_WORDS = ("From ", "With ", "By ", "At ", "On ", "To ", "Into ", "Against ", "Via ")


def _inline(label: str) -> str:
    """A label read inside another one: "From Victory (GB 1)" → "from Victory (GB 1)"."""
    return label[0].lower() + label[1:] if label.startswith(INLINE_WORDS) else label


def full_label(crumbs: list[str]) -> str:
    """The labels on the way to an entry, joined, each thing said once (the "✅ Played" answer, /move's
    choices): a label that the next one repeats is left out, and one that a later label starts with
    takes the labels between into it ("Broadside 2 › From Victory › Broadside 2 → Orion" reads
    "Broadside 2 from Victory → Orion")."""
    parts, kept, n = list(crumbs), [], 0
    while n < len(parts):
        label = parts[n]
        later = next(
            (
                k
                for k in range(n + 2, len(parts))
                if len(parts[k]) > len(label) and parts[k].lower().startswith(label.lower())
            ),
            None,
        )
        if later is not None:
            between = " ".join(_inline(p) for p in parts[n + 1 : later])
            parts[later] = f"{label} {between}{parts[later][len(label) :]}"
            n = later
            continue
        if n == len(parts) - 1 or label.lower() not in parts[n + 1].lower():
            kept.append(label)
        n += 1
    return " › ".join(kept)


def flat_choices(
    game: Game, seat: int, names: list[str] | None = None, speaker: Voice = ENGLISH
) -> list[tuple[str, list[dict]]]:
    """Every menu entry with its full label and the actions it plays, for /move autocomplete."""
    root = build_tree(game, seat, names, speaker)
    return [(full_label(crumbs), node.steps) for _, node, crumbs in leaves(root)]


def find_answer(root: Node, action: dict) -> tuple[tuple[int, ...], Node, list[str], list[int]] | None:
    """The first choice leaf that ``action`` answers, with the candidate indices it picks."""
    for prefix, node, crumbs in leaves(root):
        found = choice_of(node)
        if found is None or node.then or not fits(node.steps[-1], action):
            continue
        keys = [canonical(c) for c in found[1]["choose"]]
        return prefix, node, crumbs, [keys.index(canonical(x)) for x in action[found[0]]]
    return None


def labels_of(
    game: Game, seat: int, action: dict, names: list[str] | None = None, speaker: Voice = ENGLISH
) -> list[str | list[str]]:
    """The labels a player clicks through to play ``action`` (the first menu entry that starts with it);
    for an action that answers a choice, the last item is the list of labels picked in its multi-select
    (empty: its choose-none button)."""
    root = build_tree(game, seat, names, speaker)
    found = find_leaf(root, action)
    if found is not None:
        return list(found[2])
    answer_found = find_answer(root, action)
    if answer_found is None:
        raise ValueError(f"{action!r} is not on the menu")
    prefix, _, crumbs, picks = answer_found
    lvl = choice_level(game, seat, root, prefix, names, speaker)
    assert lvl is not None
    shown = dict(lvl.entries)
    return [*crumbs, [shown[i] for i in sorted(picks)]]
