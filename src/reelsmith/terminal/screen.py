"""Drawing a slot screen in the terminal, with winning cells highlighted."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rich.table import Table

Position = tuple[int, int]


def screen_table(
    screen: tuple[tuple[str, ...], ...],
    names: Mapping[str, str],
    styles: Mapping[str, str],
    highlight: Iterable[Position] = (),
    title: str | None = None,
) -> Table:
    marked = set(highlight)
    reels = len(screen[0]) if screen else 0
    table = Table(title=title, show_header=True, header_style="dim", show_lines=True)
    for reel in range(reels):
        table.add_column(f"reel {reel + 1}", justify="center", min_width=11)
    for row_index, row in enumerate(screen):
        cells = []
        for reel, symbol in enumerate(row):
            style = styles.get(symbol, "")
            if (row_index, reel) in marked:
                style = f"{style} reverse".strip()
            cells.append(
                f"[{style}]{names.get(symbol, symbol)}[/]" if style else names.get(symbol, symbol)
            )
        table.add_row(*cells)
    return table
