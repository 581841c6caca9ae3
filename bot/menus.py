"""Cascading menus built from a game's legal actions.

A game tells, through ``action_path(seat, action)``, how its actions group:
e.g. ``[("ship:b3a", "3-ship at C4"), ("t:E:2", "travel east 2 → E4")]``.
The host turns the legal actions into a tree and shows one level at a time.
A choice is addressed by the indices taken from the root ("prefix"), which
are stable for a given game version: the same version gives the same tree.
A level with more than ``PAGE`` entries is paged.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from bot.games import Game, canonical, fill_names

PAGE = 23  # entries per select page, leaving room for "previous" / "more"
CONFIRM = -1  # the last index of a prefix that confirms the action at the leaf before it


@dataclass
class Node:
    key: str
    label: str
    children: list[Node] = field(default_factory=list)
    action: dict | None = None


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


def build_tree(game: Game, seat: int, names: list[str] | None = None) -> Node:
    """The tree of the seat's legal actions. ``root.key`` is a short fingerprint of the whole tree:
    two trees with the same fingerprint offer the same actions at the same menu positions.
    Labels name seats with the players' ``names`` (the seats' colours without them)."""
    root = Node("", "")
    actions = game.legal_actions(seat)
    root.key = hashlib.blake2s(canonical(actions).encode(), digest_size=4).hexdigest()
    for action in actions:
        node = root
        path = game.action_path(seat, action)
        for depth, (key, label) in enumerate(path):
            child = next((c for c in node.children if c.key == key), None)
            if child is None:
                child = Node(key, fill_names(label, names)[:100])
                node.children.append(child)
            node = child
            if depth == len(path) - 1:
                node.action = action
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


def level(game: Game, seat: int, root: Node, prefix: tuple[int, ...], page: int = 0,
          names: list[str] | None = None) -> Level | None:
    found = walk(root, prefix)
    if found is None:
        return None
    node, crumbs = found
    titles = game.menu_titles(seat) or ["Choose"]
    title = fill_names(titles[min(len(prefix), len(titles) - 1)], names)
    pages = max(1, -(-len(node.children) // PAGE))
    page = max(0, min(page, pages - 1))
    entries = [(i, c.label) for i, c in enumerate(node.children)][page * PAGE:(page + 1) * PAGE]
    back = collapse_back(root, prefix)
    return Level(title=title, prefix=prefix, entries=entries, page=page, pages=pages, breadcrumb=crumbs,
                 back=back, digest=root.key if len(game.to_act()) > 1 else "")


def confirm_level(game: Game, seat: int, root: Node, leaf: tuple[int, ...],
                  names: list[str] | None = None) -> Level:
    """The last step for games that ask for it: the chosen action spelled out, Confirm or Back."""
    node, crumbs = walk(root, leaf)
    back = level(game, seat, root, leaf[:-1], names=names)
    return Level(title="Confirm", prefix=leaf, entries=[(CONFIRM, "✅ Confirm")], page=0, pages=1,
                 breadcrumb=crumbs, back=collapse_back(root, leaf), digest=back.digest if back else "")


def collapse_back(root: Node, prefix: tuple[int, ...]) -> tuple[int, ...] | None:
    """The nearest level above ``prefix`` that offers a real choice."""
    for cut in range(len(prefix) - 1, -1, -1):
        parent = walk(root, prefix[:cut])
        if parent is not None and len(parent[0].children) > 1:
            return prefix[:cut]
    return None


def open_level(game: Game, seat: int, prefix: tuple[int, ...] = (), page: int = 0,
               names: list[str] | None = None) -> Level | None:
    """The menu a seat sees at ``prefix`` (single-entry groups skipped); None if the prefix is gone."""
    root = build_tree(game, seat, names)
    return level(game, seat, root, collapse(root, prefix), page, names=names)


def encode_prefix(prefix: tuple[int, ...]) -> str:
    return ".".join(map(str, prefix)) or "-"


def decode_prefix(text: str) -> tuple[int, ...]:
    if text in ("", "-"):
        return ()
    return tuple(int(p) for p in text.split("."))


def flat_choices(game: Game, seat: int, names: list[str] | None = None) -> list[tuple[str, dict]]:
    """Every legal action with its full label (the path labels joined), for /move autocomplete."""
    out = []
    for action in game.legal_actions(seat):
        labels = [fill_names(label, names) for _, label in game.action_path(seat, action)]
        out.append((" › ".join(labels), action))
    return out
