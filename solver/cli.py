"""The ``letterchess`` command line.

Every command reports bad input in one line and exits with 2 for a usage error (an unknown
option, a bad option value) and 1 for invalid content (a malformed board, record or word list,
an illegal game); never with a traceback.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.text import Text

from . import __version__
from .board import LETTER_SOURCES, BoardError, Layout, deal, read_bag, read_board
from .budget import UNSET, Budget, search_budget
from .config import DEFAULT_TIME_LIMIT
from .inputs import MAX_RECORD_BYTES, is_file_path, read_text
from .play import class_label, describe_class
from .record import Record, RecordError
from .render import count_of
from .rules import Rules, RulesError, tally
from .squares import WIDTH, square_name

if TYPE_CHECKING:
    from .board import Position
    from .dictionary import Dictionary
    from .play import Play
    from .runs.distribution import DistributionRun
    from .runs.settings import RunSettings

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def _content_errors() -> tuple[type[Exception], ...]:
    from .dictionary import DictionaryError

    return (BoardError, RecordError, RulesError, DictionaryError)


class LetterChessGroup(click.Group):
    """Turns the project's input errors into one-line ``Error:`` messages with exit code 1, and
    Ctrl-C into exit code 130."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except _content_errors() as error:
            raise click.ClickException(str(error)) from None
        except KeyboardInterrupt:
            # Commands that can keep something on Ctrl-C (solve, bench, distribution) catch it
            # themselves; here nothing was kept.
            click.echo("Interrupted.", err=True)
            raise click.exceptions.Exit(130) from None


def _console() -> Console:
    # Created per command so that it writes to the current sys.stdout (CliRunner swaps it).
    return Console(highlight=False, soft_wrap=True)


def _print_lines(lines: list[Text]) -> None:
    console = _console()
    for line in lines:
        console.print(line)


def dict_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--dict PATH``: the word list to use instead of the shipped default."""
    return click.option(
        "--dict",
        "dict_path",
        default=None,
        metavar="FILE",
        help="Word list file (one word per line). Default: the shipped SCOWL-70 list.",
    )(command)


def load_words(dict_path: str | None) -> Dictionary:
    """The dictionary named by ``--dict`` (or the default), warning about skipped lines."""
    from .dictionary import load_dictionary

    dictionary = load_dictionary(dict_path)
    if dictionary.skipped:
        line, text = dictionary.skipped[0]
        click.echo(
            f"warning: {dictionary.source}: {len(dictionary.skipped)} lines skipped, "
            f"not words of letters only (first: line {line}, {text!r})",
            err=True,
        )
    return dictionary


class MoveLimit(click.ParamType):
    """A move limit: a number K >= 0, or ``all`` for none (``None``)."""

    name = "K|all"

    def convert(self, value: Any, param: Any, ctx: Any) -> int | None:
        if value is None or isinstance(value, int):
            return value
        if str(value).strip().lower() == "all":
            return None
        try:
            limit = int(value)
        except ValueError:
            limit = -1
        if limit < 0:
            self.fail(f"{value!r} is not a number of moves >= 0 or 'all'", param, ctx)
        return limit


def max_moves_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--max-moves K|all``: the move limit of the plays considered (RULES.md section 10)."""
    return click.option(
        "--max-moves",
        type=MoveLimit(),
        default="all",
        show_default=True,
        help="Most tiles moved in a turn (K), or 'all' for no limit (the real game, the default).",
    )(command)


def random_deal_option(verb: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--random SEED``: the standard deal of a seed instead of a BOARD; ``verb`` starts the
    help ("Solve", "Bound")."""
    return click.option(
        "--random",
        "random_seed",
        type=click.IntRange(min=0),
        default=None,
        help=f"{verb} the standard deal of this seed (the board of `letterchess generate --seed`).",
    )


def after_option(help_text: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--after RECORD``: start from the end of a game record (see :func:`_position_of`)."""
    return click.option(
        "--after",
        "record_path",
        default=None,
        metavar="RECORD",
        help=help_text,
    )


def rule_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The variant options of RULES.md; each defaults to ``None`` (the standard rule, or the
    record's when one is given) so that a command can tell whether it was set."""
    options = [
        click.option(
            "--word-shape",
            type=click.Choice(["path", "line"]),
            default=None,
            help="path: a word may bend (default); line: straight lines only.",
        ),
        click.option(
            "--min-word-length",
            type=click.IntRange(min=1),
            default=None,
            help="Shortest word allowed [default: 3].",
        ),
        click.option(
            "--min-moves",
            type=click.IntRange(min=0),
            default=None,
            help="Fewest tile moves each turn must make [default: 0].",
        ),
        click.option(
            "--moves-per-tile",
            type=click.IntRange(min=1),
            default=None,
            help="How often one tile may move in a turn [default: 1].",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _check_move_limit(rules: Rules, max_moves: int | None) -> None:
    """Refuse ``--max-moves`` below the rules' ``--min-moves`` (no turn could be played)."""
    try:
        rules.check_move_limit(max_moves)
    except RulesError as error:
        raise click.UsageError(str(error)) from None


def rules_from_options(options: dict[str, Any], base: Rules | None = None) -> Rules:
    """Rules from the values of :func:`rule_options`; with ``base`` (a record's rules), an
    option that contradicts it is a usage error."""
    given = {name: value for name, value in options.items() if value is not None}
    if base is None:
        return Rules(**given)
    for name, value in given.items():
        if getattr(base, name) != value:
            raise click.UsageError(
                f"--{name.replace('_', '-')} {value} contradicts the record's rules "
                f"({name}={getattr(base, name)})"
            )
    return base


class LetterSourceType(click.ParamType):
    """``scrabble``, ``uniform`` (any case) or the path of a ``LETTER COUNT`` file."""

    name = "scrabble|uniform|FILE"

    def convert(self, value: Any, param: Any, ctx: Any) -> str:
        if is_file_path(value):
            return str(value)
        if str(value).lower() in LETTER_SOURCES:
            return str(value).lower()
        self.fail(f"{value!r} is neither scrabble, uniform nor a letters file", param, ctx)


class Seconds(click.ParamType):
    """A duration in seconds: a finite number above 0 (``nan`` and ``inf`` are refused)."""

    name = "SECONDS"

    def convert(self, value: Any, param: Any, ctx: Any) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or seconds <= 0:
            self.fail(f"{value!r} is not a finite number of seconds above 0", param, ctx)
        return seconds


SECONDS = Seconds()


def budget_options(per_deal: bool) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--time-limit`` and ``--max-states``: the search budget (of every deal, if
    ``per_deal``). The command gets them as one ``budget`` argument, made by the rule of
    :func:`solver.budget.search_budget`: 10 s unless a state budget is given."""
    time_help = "Seconds per deal" if per_deal else "Seconds to search"
    states_help = (
        "Budget in states per deal: the same games on every machine."
        if per_deal
        else "Budget in states (positions expanded): the same record on every machine."
    )

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(command)
        def with_budget(*args: Any, time_limit: float | None, max_states: int | None, **kw: Any):
            given = UNSET if time_limit is None else time_limit
            return command(*args, budget=search_budget(given, max_states), **kw)

        with_budget = click.option(
            "--max-states", type=click.IntRange(min=1), default=None, help=states_help
        )(with_budget)
        return click.option(
            "--time-limit",
            type=SECONDS,
            default=None,
            help=f"{time_help} [default: {DEFAULT_TIME_LIMIT:g}, or none when --max-states is "
            "given].",
        )(with_budget)

    return decorate


class StrategyOption(click.Option):
    """An option naming strategies, whose help lists them from the registry (``{names}`` in
    the help text). The list is read only when the help is shown: importing the strategies
    loads numba, which commands that never search should not pay for."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        from .search import STRATEGIES

        template = self.help or ""
        self.help = template.replace("{names}", ", ".join(STRATEGIES))
        try:
            return super().get_help_record(ctx)
        finally:
            self.help = template


@click.group(cls=LetterChessGroup, context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "--version", package_name="letterchess")
def cli() -> None:
    """Letter Chess: a solitaire word game on a 7x9 grid, and a solver for it.

    Boards are given as a file (9 lines of 7 characters, row 9 first, '.' for an empty square)
    or inline in the one-line form, rows 9 to 1 joined by '/'.
    """


@cli.command()
@click.option("--seed", type=click.IntRange(min=0), required=True, help="Seed of the first deal.")
@click.option(
    "--count", type=click.IntRange(min=1), default=1, show_default=True, help="Number of deals."
)
@click.option(
    "--letters",
    type=LetterSourceType(),
    default="scrabble",
    show_default=True,
    help="Where letters come from: the 98 Scrabble tiles, uniform letters, or a bag file "
    "of 'LETTER COUNT' lines.",
)
@click.option(
    "--layout",
    "pattern_spec",
    default=None,
    metavar="BOARD",
    help="Deal onto the tile squares of this board instead of the standard layout.",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["line", "text"]),
    default="line",
    show_default=True,
    help="One-line boards, or 9-line text boards preceded by a '# seed N' line.",
)
def generate(
    seed: int, count: int, letters: str, pattern_spec: str | None, output_format: str
) -> None:
    """Print random deals. Deal i of --count K uses seed SEED+i, so every deal can be
    reproduced alone; the same seed gives the same deal on every machine."""
    source: str | dict[str, int] = letters if letters in LETTER_SOURCES else read_bag(letters)
    kwargs = {} if pattern_spec is None else {"pattern": read_board(pattern_spec)}
    for deal_seed in range(seed, seed + count):
        layout = deal(deal_seed, source, **kwargs)
        if output_format == "line":
            click.echo(layout.to_line())
        else:
            if deal_seed != seed:
                click.echo()
            click.echo(f"# seed {deal_seed}")
            click.echo(layout.to_text(), nl=False)


def _read_record_or_board(spec: str) -> Record | Layout:
    """A game record (a JSON file) or a board (a board file or an inline board)."""
    if not is_file_path(spec) or Path(spec).is_dir():
        return read_board(spec)
    try:
        text = read_text(spec, "record or board file", MAX_RECORD_BYTES)
    except OSError as error:
        raise BoardError(str(error)) from None
    if text.lstrip().startswith(("{", "[")) or spec.endswith(".json"):
        return Record.from_json(text, source=spec)
    try:
        return Layout.parse(text, source=spec)
    except BoardError as error:
        if any(len(line.strip()) == WIDTH for line in text.splitlines()):
            raise  # meant as a board: say what is wrong with it
        reason = str(error).removeprefix(f"{spec}: ")
        raise BoardError(f"{spec}: neither a game record (JSON) nor a board: {reason}") from None


@cli.command()
@click.argument("source", metavar="RECORD|BOARD")
@click.option(
    "--html",
    "html_out",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Write a self-contained HTML replay instead (it works offline, from the file).",
)
@dict_option
def show(source: str, html_out: str | None, dict_path: str | None) -> None:
    """Print a game record turn by turn (board before each turn, moves, the word marked on the
    board, points, final breakdown) or a board with row and column labels.

    In a record, [X] marks the letters of the turn's word and (X) a tile about to move. A
    record is checked by the referee first (against --dict, or the default word list): an
    illegal one is still shown, after a warning with the referee's reason.
    """
    from .referee import check_record
    from .render import layout_lines, record_lines

    _check_outputs([("--html", html_out)], [("RECORD", source if is_file_path(source) else None)])
    item = _read_record_or_board(source)
    if isinstance(item, Record):
        verdict = check_record(item, load_words(dict_path))
        if verdict.fault is not None:
            click.echo(f"warning: {source}: an illegal game: {verdict.fault}", err=True)
    if html_out is not None:
        from .web.replay import write_replay

        try:
            write_replay(item, html_out)
        except OSError as error:
            raise click.ClickException(f"{html_out}: cannot write the replay ({error})") from None
        click.echo(f"Replay written to {html_out}")
    elif isinstance(item, Layout):
        _print_lines(layout_lines(item))
        click.echo(f"{count_of(item.tile_count, 'tile')}")
    else:
        _print_lines(record_lines(item))


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port to listen on (0: any free port).",
)
@click.option("--no-browser", is_flag=True, help="Do not open the page in a browser.")
@dict_option
def serve(host: str, port: int, no_browser: bool, dict_path: str | None) -> None:
    """Run the web app: enter or deal a board, solve it with live progress, replay the game,
    play with hints checked by the referee (README: letterchess serve). Ctrl-C stops it.

    Needs the web extra: pip install 'letterchess[web]'.
    """
    try:
        from .web.app import serve as serve_app
    except ImportError as error:
        raise click.ClickException(
            f"the web app needs the web extra ({error.name} is missing): "
            "pip install 'letterchess[web]'"
        ) from None
    dictionary = load_words(dict_path)
    try:
        serve_app(dictionary, host, port, open_browser=not no_browser, announce=click.echo)
    except OSError as error:
        raise click.ClickException(f"cannot listen on {host}:{port} ({error.strerror})") from None
    except KeyboardInterrupt:
        click.echo("Stopped.")


@cli.command()
@click.argument("record_path", metavar="RECORD")
@dict_option
def check(record_path: str, dict_path: str | None) -> None:
    """Replay a game record and check every move, path, word, score and the result.

    Exits 0 with a summary when the whole record holds, 1 with the first fault otherwise.
    """
    from .referee import check_record

    record = Record.load(record_path)
    dictionary = load_words(dict_path)
    verdict = check_record(record, dictionary)
    for note in verdict.notes:
        click.echo(f"note: {note}", err=True)
    if verdict.fault is not None:
        raise click.ClickException(f"{record_path}: {verdict.fault}")
    checked = f"(checked against {dictionary.name})"
    if verdict.in_progress:
        click.echo(
            f"{record_path}: game in progress: {count_of(verdict.turns_checked, 'turn')}, "
            f"{count_of(verdict.points, 'point')} so far, every turn legal {checked}"
        )
        return
    result = verdict.result
    assert result is not None
    ending = (
        f"cleared, bonus {result.bonus}"
        if result.cleared
        else f"{count_of(len(result.remaining), 'tile')} left, penalty {result.penalty}"
    )
    click.echo(
        f"{record_path}: legal game: {count_of(result.rounds, 'turn')}, "
        f"{result.word_points} word points, {ending}, score {result.score} {checked}"
    )


def _position_of(
    board_spec: str | None,
    record_path: str | None,
    random_seed: int | None,
    dictionary: Dictionary,
    options: dict[str, Any],
    usage: str = "give a BOARD or --after RECORD (one of them)",
) -> tuple[Position, Rules]:
    """The position a command starts from (a BOARD, a --random deal or the end of an --after
    RECORD, exactly one of them) and its rules (the record's, overridden by the options).

    :param usage: the error when not exactly one was given.
    """
    from .board import Position
    from .referee import check_record

    given = (board_spec is not None, random_seed is not None, record_path is not None)
    if sum(given) != 1:
        raise click.UsageError(usage)
    if record_path is not None:
        record = Record.load(record_path)
        verdict = check_record(record, dictionary)
        if verdict.fault is not None and verdict.fault.turn is not None:
            raise click.ClickException(f"{record_path}: {verdict.fault}")
        assert verdict.position is not None
        return verdict.position, rules_from_options(options, record.rules)
    layout = read_board(board_spec) if board_spec is not None else deal(random_seed or 0)
    return Position.start(layout), rules_from_options(options)


@cli.command()
@click.argument("board_spec", metavar="[BOARD]", required=False)
@after_option("Start from the position at the end of this game record (a hint in mid-game).")
@max_moves_option
@click.option(
    "--top", type=click.IntRange(min=1), default=20, show_default=True, help="Plays to list."
)
@click.option("--all", "show_all", is_flag=True, help="List every play.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON array instead of a table.")
@rule_options
@dict_option
def plays(
    board_spec: str | None,
    record_path: str | None,
    max_moves: int | None,
    top: int,
    show_all: bool,
    as_json: bool,
    dict_path: str | None,
    **options: Any,
) -> None:
    """List the plays from a board (or from the end of a game record), best first: tally,
    word, moves and path.

    Plays are those of the full class (RULES.md section 10): each tile moves at most once,
    every moved tile is in the word; with K, at most K tiles move.
    """
    import json

    from .movegen import generate_plays

    dictionary = load_words(dict_path)
    position, rules = _position_of(board_spec, record_path, None, dictionary, options)
    _check_move_limit(rules, max_moves)
    try:
        found = generate_plays(
            position.layout, position.remaining_mask, dictionary, rules, max_moves, position.played
        )
    except KeyboardInterrupt:
        raise _interrupted("no plays listed") from None
    shown = found if show_all else found[:top]
    if as_json:
        # One play per line: readable, and easy to grep or diff.
        lines = ",\n".join(json.dumps(play.to_json()) for play in shown)
        click.echo(f"[\n{lines}\n]" if shown else "[]")
        return
    click.echo(
        f"{len(found)} play{'s' * (len(found) != 1)} of the full class, "
        f"{describe_class(max_moves)} ({rules.describe()} rules)"
        + ("" if len(shown) == len(found) else f"; the best {len(shown)}:")
    )
    _print_play_table(position.layout, shown)


def _print_play_table(layout: Layout, plays: list[Play]) -> None:
    """The plays as a table, every column as wide as its longest entry."""
    if not plays:
        return
    rows = [
        (
            str(rank),
            str(play.score),
            play.word,
            ", ".join(f"{layout[a]} {square_name(a)}-{square_name(b)}" for a, b in play.moves)
            or "-",
            " ".join(square_name(sq) for sq in play.path),
        )
        for rank, play in enumerate(plays, start=1)
    ]
    header = ("#", "tally", "word", "moves", "path")
    widths = [max(len(row[i]) for row in [*rows, header]) for i in range(4)]
    for row in [header, *rows]:
        click.echo(
            f"{row[0]:>{widths[0]}}  {row[1]:>{widths[1]}}  {row[2]:<{widths[2]}}  "
            f"{row[3]:<{widths[3]}}  {row[4]}"
        )


@cli.command()
@click.argument("board_spec", metavar="[BOARD]", required=False)
@random_deal_option("Bound")
@after_option("Bound the rest of this game record: its points so far plus what can follow.")
@max_moves_option
@click.option(
    "--unrestricted",
    is_flag=True,
    help="Bound the game under the rules themselves (any moves), from the letters alone.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the bound as a JSON object.")
@rule_options
@dict_option
def bound(
    board_spec: str | None,
    random_seed: int | None,
    record_path: str | None,
    max_moves: int | None,
    unrestricted: bool,
    as_json: bool,
    dict_path: str | None,
    **options: Any,
) -> None:
    """Print an upper bound on the final score of a deal: no game can score more.

    By default the bound is for the plays with at most K moves a turn (the plays `solve`
    searches); --unrestricted bounds every game the rules allow, looking at the letters only
    (so do --max-moves all and a K above 3, whose placements would take minutes to find). How
    it is computed, and why it holds: the README's section "letterchess bound".
    """
    import json

    from .search.bound import board_bound

    dictionary = load_words(dict_path)
    position, rules = _position_of(
        board_spec,
        record_path,
        random_seed,
        dictionary,
        options,
        usage="give one of a BOARD, --random SEED or --after RECORD",
    )
    if not unrestricted:
        _check_move_limit(rules, max_moves)
    played = sorted(position.played)
    # Words are never played twice, so the set's tallies are the points the game won.
    points_so_far = sum(tally(word) for word in played)
    result = board_bound(
        position.layout,
        dictionary,
        rules,
        None if unrestricted else max_moves,
        position.remaining_mask,
        played,
        points_so_far,
    )
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
    click.echo(f"Upper bound: {result.score} ({result.describe()}; {rules.describe()} rules)")
    if record_path is not None:
        click.echo(f"  points so far        {points_so_far:>5}")
    cleared = "impossible" if result.if_cleared is None else f"{result.if_cleared:>5}"
    click.echo(f"  to come if cleared   {cleared}")
    click.echo(f"  to come otherwise    {result.if_not_cleared:>5}")
    placed = f"; {result.placements:,} placements" if result.placements else ""
    click.echo(
        f"  candidate words      {result.candidates:>5,} (longest: {result.longest} letters"
        f"{placed})"
    )


@cli.command()
@click.argument("board_spec", metavar="[BOARD]", required=False)
@random_deal_option("Solve")
@after_option(
    "Continue this game record (a game in progress): the best continuation; the record "
    "written keeps the turns played so far."
)
@click.option(
    "--strategy",
    "strategy_spec",
    cls=StrategyOption,
    default="auto",
    show_default=True,
    help="NAME or NAME:key=value,... : {names} (README, Strategies).",
)
@budget_options(per_deal=False)
@max_moves_option
@click.option(
    "--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Seeds the search."
)
@click.option(
    "--json",
    "json_out",
    default=None,
    metavar="FILE",
    help="Write the game record (letterchess/record-1) to this file.",
)
@click.option(
    "--bound/--no-bound",
    "with_bound",
    default=True,
    show_default=True,
    help="After the search, compute an upper bound on the score and the gap (about a second).",
)
@click.option("--quiet", is_flag=True, help="No live progress.")
@rule_options
@dict_option
def solve(
    board_spec: str | None,
    random_seed: int | None,
    record_path: str | None,
    strategy_spec: str,
    budget: Budget,
    max_moves: int | None,
    seed: int,
    json_out: str | None,
    with_bound: bool,
    quiet: bool,
    dict_path: str | None,
    **options: Any,
) -> None:
    """Find the best game for a deal and print it turn by turn: the board before each turn,
    the moves, the word marked on the board, the points, and the final breakdown.

    The search stops at the time limit (or state budget) with the best complete game found;
    Ctrl-C stops it early the same way. With --after, it finds the best way to go on with a
    game in progress.
    """
    from .progress import SearchProgress
    from .search import StrategyError, parse_strategy
    from .solution import solve as solve_deal

    given = (board_spec is not None, random_seed is not None, record_path is not None)
    if sum(given) != 1:
        raise click.UsageError("give one of a BOARD, --random SEED or --after RECORD")
    try:
        strategy = parse_strategy(strategy_spec)
    except StrategyError as error:
        raise click.BadParameter(str(error), param_hint="'--strategy'") from None
    _check_outputs([("--json", json_out)], [("--after", record_path), ("--dict", dict_path)])
    start: Layout | Record
    if record_path is not None:
        start = Record.load(record_path)
        rules = rules_from_options(options, start.rules)
    else:
        start = read_board(board_spec) if board_spec is not None else deal(random_seed or 0)
        rules = rules_from_options(options)
    _check_move_limit(rules, max_moves)
    dictionary = load_words(dict_path)
    with SearchProgress(strategy_spec, enabled=not quiet) as progress:
        try:
            solution = solve_deal(
                start,
                strategy,
                time_limit=budget.time_limit,
                max_moves=max_moves,
                seed=seed,
                dictionary=dictionary,
                rules=rules,
                max_states=budget.max_states,
                on_context=progress.attach,
                bound=with_bound,
                on_phase=progress.phase,
            )
        except ValueError as error:  # a game in progress that is not legal
            if record_path is None or isinstance(error, _content_errors()):
                raise
            raise click.ClickException(f"{record_path}: {error}") from None
    from .render import record_lines

    _print_lines(record_lines(solution.record))
    outcome = solution.outcome
    rate = outcome.states / outcome.seconds if outcome.seconds > 0 else 0.0
    params = ", ".join(f"{k}={v}" for k, v in strategy.params.to_dict().items())
    click.echo(
        f"Search: {strategy.name}{f' ({params})' if params else ''}"
        f"{f' chose {chosen}' if (chosen := outcome.report.chosen) else ''}, "
        f"{class_label(max_moves)}, "
        f"{outcome.seconds:.2f} s, {outcome.states:,} states ({rate:,.0f}/s), "
        f"stopped: {outcome.stop_reason}"
    )
    if json_out is not None:
        try:
            solution.record.save(json_out)
        except OSError as error:
            raise click.ClickException(f"{json_out}: cannot write the record ({error})") from None
        click.echo(f"Record written to {json_out}")


@cli.command()
@click.argument("words", nargs=-1)
@click.option("--info", is_flag=True, help="Describe the dictionary: name, size, sha256, source.")
@click.option(
    "--min-word-length",
    type=click.IntRange(min=1),
    default=3,
    show_default=True,
    help="Shortest word the rules allow.",
)
@dict_option
def words(words: tuple[str, ...], info: bool, min_word_length: int, dict_path: str | None) -> None:
    """Say for each WORD whether it is playable and what it tallies, or describe the dictionary
    with --info."""
    if not words and not info:
        raise click.UsageError("give one or more WORDs, or --info")
    dictionary = load_words(dict_path)
    if info:
        click.echo(f"name:    {dictionary.name}")
        click.echo(f"words:   {len(dictionary)}")
        click.echo(f"sha256:  {dictionary.sha256}")
        click.echo(f"source:  {dictionary.source}")
        click.echo(f"cache:   {dictionary.cache_path or 'in memory only'}")
    width = max((len(word) for word in words), default=0)
    for word in words:
        upper = word.upper()
        if not upper.isascii() or not upper.isalpha():
            verdict = "not playable: not made of letters A-Z"
        elif upper.lower() not in dictionary:
            verdict = f"not playable: not in {dictionary.name}"
        elif len(upper) < min_word_length:
            verdict = f"not playable: shorter than {min_word_length} letters"
        else:
            verdict = f"playable, tally {tally(upper)}"
        click.echo(f"{upper:<{width}}  {verdict}")


# --- bench and distribution (issue 6) --------------------------------------------------------


def _workers_option(command: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--workers",
        type=click.IntRange(min=0),
        default=None,
        help="Local worker processes [default: one per core]; 0 solves in this process.",
    )(command)


def _check_outputs(
    outputs: list[tuple[str, str | None]], inputs: list[tuple[str, str | Path | None]]
) -> None:
    """Before any work: every output path (``(option, path)``, ``None`` when not given) can be
    written, and no two options name one file (nor an output an input it would overwrite).

    :raises click.BadParameter: for a path that cannot be written, naming its option.
    :raises click.UsageError: for two options naming one file.
    """
    from . import outputs as output_files

    for option, path in outputs:
        if path is not None:
            try:
                output_files.check_output_path(path)
            except output_files.OutputPathError as error:
                raise click.BadParameter(str(error), param_hint=f"'{option}'") from None
    try:
        output_files.check_distinct_paths(outputs, inputs)
    except output_files.OutputPathError as error:
        raise click.UsageError(str(error)) from None


def _run_settings(
    strategies: tuple[str, ...],
    budget: Budget,
    max_moves: int | None,
    seed: int,
    bound: bool,
    dictionary: Dictionary,
    options: dict[str, Any],
) -> RunSettings:
    """The settings of a bench or distribution run, from its options."""
    from .runs.settings import RunSettings

    rules = rules_from_options(options)
    return RunSettings(strategies, budget, max_moves, seed, rules, dictionary.info(), bound)


def _interrupted(message: str) -> click.exceptions.Exit:
    click.echo(f"Interrupted: {message}", err=True)
    return click.exceptions.Exit(130)


@cli.command()
@click.option(
    "--boards",
    "boards_dir",
    type=click.Path(file_okay=False, exists=True),
    default=None,
    help="Solve the *.txt boards of this folder [default: the repository's benchmarks/boards].",
)
@click.option(
    "--random",
    "random_count",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Solve N random deals instead: those of `letterchess distribution --n N --seed SEED`.",
)
@click.option(
    "--strategies",
    "strategies_text",
    required=True,
    metavar="LIST",
    cls=StrategyOption,
    help="Strategy specs separated by commas, e.g. greedy,beam:width=50,growth=3,dfs (a comma "
    "followed by key=value continues the strategy before it). The first is the baseline. "
    "Strategies: {names}.",
)
@budget_options(per_deal=True)
@max_moves_option
@_workers_option
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Seeds the random deals, the searches of board files, and the bootstrap.",
)
@click.option(
    "--json",
    "json_out",
    metavar="FILE",
    default=None,
    help="Write the report (settings, statistics, every solve with its record) as JSON.",
)
@click.option(
    "--csv",
    "csv_out",
    metavar="FILE",
    default=None,
    help="Write one CSV row per solve: deal, deal_seed, strategy, score, bound, cleared, "
    "rounds, seconds, states, stopped.",
)
@click.option(
    "--bound/--no-bound",
    default=True,
    show_default=True,
    help="Compute each deal's upper bound and report the mean gap (about a second a deal).",
)
@click.option("--quiet", is_flag=True, help="No progress display.")
@rule_options
@dict_option
def bench(
    boards_dir: str | None,
    random_count: int | None,
    strategies_text: str,
    budget: Budget,
    max_moves: int | None,
    workers: int | None,
    seed: int,
    json_out: str | None,
    csv_out: str | None,
    bound: bool,
    quiet: bool,
    dict_path: str | None,
    **options: Any,
) -> None:
    """Compare search strategies: solve every deal with every strategy and print, per
    strategy, the mean, median, standard deviation, min and max score, the clear rate, the mean
    rounds, the mean seconds, the states per second, the mean upper bound of the deals and the
    mean gap (score / bound); then each strategy against the first, deal by deal: the mean
    score difference with a 95 % percentile bootstrap confidence interval (10,000 resamples,
    seeded by --seed) and the wins, ties and losses.

    Board files are searched with --seed; random deal i has seed SEED * 1000003 + i (so
    --seed 0 gives the deals of seeds 0 to N-1) and is searched with that seed.
    """
    from .runs import bench_report
    from .runs.bench import BenchError, BenchInterrupted, run_bench, strategy_list

    try:
        specs = strategy_list(strategies_text)
    except BenchError as error:
        raise click.BadParameter(str(error), param_hint="'--strategies'") from None
    deals, board_paths = _bench_deals(boards_dir, random_count, seed)
    outputs = [("--json", json_out), ("--csv", csv_out)]
    _check_outputs(outputs, [("--dict", dict_path), *(("--boards", p) for p in board_paths)])
    words = load_words(dict_path)
    settings = _run_settings(tuple(specs), budget, max_moves, seed, bound, words, options)
    try:
        report = run_bench(
            deals, settings, dict_path=dict_path, workers=workers, progress=not quiet
        )
    except BenchInterrupted as interrupted:
        if interrupted.report is None:
            raise _interrupted("no deal was finished by every strategy: no report") from None
        report = interrupted.report
    console = _console()
    if not console.is_terminal:
        # Not a terminal (a pipe, a file): rich would squeeze the tables into 80 columns.
        console = Console(highlight=False, soft_wrap=True, width=160)
    console.print(bench_report.header(report))
    for table in bench_report.report_tables(report):
        console.print()
        console.print(table)
    for path, write in ((json_out, bench_report.write_json), (csv_out, bench_report.write_csv)):
        if path is not None:
            _write_output(path, "cannot write", functools.partial(write, report, path))
            click.echo(f"Report written to {path}")
    if report.interrupted:
        raise _interrupted(
            f"the report covers the {len(report.deals):,} of {count_of(report.planned, 'deal')} "
            "that every strategy finished"
        )


def _bench_deals(
    boards_dir: str | None, random_count: int | None, seed: int
) -> tuple[list[Any], list[Path]]:
    """The deals of ``bench`` (``--boards DIR``, ``--random N`` or the repository's boards)
    and the board files they were read from."""
    from .runs.deals import (
        DealsError,
        board_files,
        deals_from_folder,
        random_deals,
        repository_boards,
    )

    if boards_dir is not None and random_count is not None:
        raise click.UsageError("give either --boards DIR or --random N, not both")
    if random_count is not None:
        return random_deals(random_count, seed), []
    folder = Path(boards_dir) if boards_dir is not None else repository_boards()
    if boards_dir is None and not folder.is_dir():
        raise click.UsageError(
            "the default deals, the repository's benchmarks/boards, are not here "
            "(letterchess is installed outside the repository): pass --boards DIR or "
            "--random N"
        )
    try:
        return deals_from_folder(folder), board_files(folder)
    except DealsError as error:
        raise click.BadParameter(str(error), param_hint="'--boards'") from None


def _write_output(path: str, failure: str, write: Callable[[], None]) -> None:
    """Write an output file at the end of a command: an error (exit 1) names the file."""
    try:
        write()
    except OSError as error:
        raise click.ClickException(f"{path}: {failure} ({error.strerror or error})") from None


@cli.command()
@click.option(
    "--n",
    "count",
    type=click.IntRange(min=1, max=1_000_003),
    required=True,
    help="Number of deals.",
)
@click.option(
    "--strategy",
    "strategy_spec",
    default="auto",
    show_default=True,
    cls=StrategyOption,
    help="NAME or NAME:key=value,... : {names} (as for `letterchess solve`).",
)
@budget_options(per_deal=True)
@max_moves_option
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Deal i has seed SEED * 1000003 + i (its search too); also seeds the bootstrap.",
)
@_workers_option
@click.option(
    "--scheduler",
    default=None,
    metavar="ADDRESS",
    help="Solve on a Dask cluster: the address of its scheduler, e.g. tcp://10.0.0.5:8786 "
    "(needs pip install 'letterchess[dask]').",
)
@click.option(
    "--out",
    metavar="FILE",
    required=True,
    help="The results file (JSON Lines); an existing one is resumed.",
)
@click.option(
    "--plot",
    metavar="FILE",
    default=None,
    help="Draw a histogram of the scores to this PNG file.",
)
@click.option(
    "--bound",
    is_flag=True,
    help="Also compute each deal's upper bound (about a second a deal) and the mean gap.",
)
@click.option("--quiet", is_flag=True, help="No progress display.")
@rule_options
@dict_option
def distribution(
    count: int,
    strategy_spec: str,
    budget: Budget,
    max_moves: int | None,
    seed: int,
    workers: int | None,
    scheduler: str | None,
    out: str,
    plot: str | None,
    bound: bool,
    quiet: bool,
    dict_path: str | None,
    **options: Any,
) -> None:
    """Solve N random deals and estimate the score distribution: the mean with a 95 %
    percentile bootstrap confidence interval (10,000 resamples, seeded by --seed), the 5th,
    25th, 50th, 75th and 95th percentiles, the clear rate and the share of deals above 400.

    Deal i (from 0) is the standard deal of seed SEED * 1000003 + i, the board of `letterchess
    generate --seed` for that number, and is searched with that seed: the same N and seed give
    the same deals on every machine (and with --max-states, the same games).

    Deals are solved by local worker processes, or with --scheduler by the workers of a Dask
    cluster (`dask scheduler` on one machine, `dask worker ADDRESS` on each; letterchess
    installed on all, and a --dict file at the same path on all).

    \b
    The results file (letterchess/distribution-1) has one JSON line per deal, in the order
    they finished, written whole and synced to disk as soon as the deal is solved:
      {"format": "letterchess/distribution-1", "index": I, "deal_seed": SEED*1000003+I,
       "board": ..., "score": ..., "cleared": ..., "rounds": ..., "seconds": ...,
       "states": ..., "stopped": ..., "bound": ... (or null), "settings": {"strategy",
       "time_limit", "max_states", "max_moves", "seed", "rules", "dictionary", "bound"},
       "record": {the game record}}
    Run the same command again to resume: deals already in the file are skipped; a last line
    cut short by a killed run is removed and redone. Any other bad line, and settings that
    differ from the file's, are an error naming the line; the file is left as it is.
    """
    from .runs.distribution import run_distribution
    from .runs.executors import RunError
    from .runs.results_file import ResultsFileError, SettingsConflict
    from .runs.settings import canonical_strategy
    from .search import StrategyError

    try:
        strategy = canonical_strategy(strategy_spec)
    except StrategyError as error:
        raise click.BadParameter(str(error), param_hint="'--strategy'") from None
    if scheduler is not None and workers is not None:
        raise click.UsageError("--workers is for local runs: with --scheduler, the cluster's run")
    _check_outputs([("--out", out), ("--plot", plot)], [("--dict", dict_path)])
    words = load_words(dict_path)
    settings = _run_settings((strategy,), budget, max_moves, seed, bound, words, options)
    try:
        run = run_distribution(
            out,
            count,
            settings,
            dict_path=dict_path,
            workers=workers,
            scheduler=scheduler,
            progress=not quiet,
            notify=lambda message: click.echo(message, err=True),
        )
    except (ResultsFileError, SettingsConflict, RunError) as error:
        # What the results file holds, or what became of the run: not the command's usage.
        raise click.ClickException(str(error)) from None
    except KeyboardInterrupt:
        raise _interrupted(
            f"the deals solved so far are in {out}; run the same command again to solve the rest"
        ) from None
    _print_distribution(run, plot)


def _print_distribution(run: DistributionRun, plot: str | None) -> None:
    """The summary of a distribution run, and its histogram written to ``plot``."""
    from .runs.distribution import summary_lines
    from .runs.plot import plot_histogram
    from .runs.statistics import summarise

    summary = summarise(run.results, run.settings.seed)
    for line in [*run.header(), *summary_lines(summary)]:
        click.echo(line)
    if plot is not None:
        scores = [result.score for result in run.results]
        draw = functools.partial(plot_histogram, scores, summary, run.plot_title(summary), plot)
        _write_output(plot, "cannot write the plot", draw)
        click.echo(f"Histogram written to {plot}")


def main() -> None:
    """Console entry point."""
    cli(prog_name="letterchess")


if __name__ == "__main__":
    main()
