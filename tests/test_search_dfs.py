"""The ``dfs`` strategy and its admissible bound: exact optima on small boards (against a plain
exhaustive search), admissibility, legal records, determinism and the time limit."""

import numpy as np
import pytest

from solver.board import Layout, deal
from solver.dictionary import Dictionary
from solver.referee import check_record
from solver.rules import Rules, clear_bonus, tally
from solver.search import bound as bound_module
from solver.search.base import Game, SearchContext
from solver.search.bound import VOWEL_CODES, BoundTables, Profile, letter_counts, upper_bound
from solver.search.dfs import DfsParams, DfsStrategy
from solver.solution import run_search, solve
from solver.squares import direction_between

from .conftest import TEST_WORDS, WorkClock
from .naive import MAX_MOVES, SMALL_BOARDS, Exhaustive, letters_of


def run_dfs(board, dictionary=None, rules=None, params=None, **budget):
    """Solve with ``dfs``; returns the solution and the strategy (for ``proven``)."""
    budget = {"time_limit": None, "max_states": 200_000, "bound": False, "max_moves": 2, **budget}
    strategy = DfsStrategy(params or DfsParams())
    solution = solve(board, strategy, dictionary=dictionary, rules=rules, **budget)
    return solution, strategy


@pytest.mark.parametrize("board", SMALL_BOARDS)
@pytest.mark.parametrize("widen", [True, False])
def test_dfs_finds_the_exhaustive_optimum(scowl, board, widen):
    layout = Layout.from_line(board)
    optimum = Exhaustive(layout, scowl).optimum()
    solution, strategy = run_dfs(layout, scowl, params=DfsParams(widen=widen))
    assert solution.score == optimum
    assert strategy.proven and strategy.upper_bound == optimum
    assert solution.outcome.stop_reason == "finished"
    assert check_record(solution.record, scowl).ok


@pytest.mark.parametrize("board", SMALL_BOARDS[:2])
def test_dfs_is_exact_without_the_bound(scowl, board, monkeypatch):
    # With a useless bound nothing is cut but by the transposition table, whose entries are
    # then exact values: this checks the table's played-words and rounds logic on its own.
    layout = Layout.from_line(board)
    optimum = Exhaustive(layout, scowl).optimum()

    def useless(self, vowels, consonants, rounds):
        return np.asarray(vowels) * 0 + 10**6

    monkeypatch.setattr(Profile, "future", useless)
    solution, strategy = run_dfs(layout, scowl)
    assert solution.score == optimum and strategy.proven


def test_bound_is_admissible_in_every_state(scowl):
    # Every state of the small boards, the bound of its own letters and the bound each child
    # inherits from it, against the exact values of the plain search.
    for board in SMALL_BOARDS[:3]:
        layout = Layout.from_line(board)
        exhaustive = Exhaustive(layout, scowl)
        tables = BoundTables.of(scowl)
        for (mask, played), value in exhaustive.states():
            letters = letters_of(layout, mask)
            assert upper_bound(letters, len(played), scowl, 3, played) >= value, (mask, played)
            counts = letter_counts(letters)
            ids = [scowl.word_id(w) for w in played]
            profile = tables.profile(counts, 3, ids)
            for play in exhaustive.plays(mask, played):
                child = exhaustive.value(mask & ~play.tiles_mask, played | {play.word})
                left = letter_counts(letters_of(layout, mask & ~play.tiles_mask))
                vowels = int(left[VOWEL_CODES].sum())
                inherited = profile.future(vowels, int(left.sum()) - vowels, len(played) + 1)
                assert inherited >= child, (mask, played, play.word)


def test_bound_with_a_small_dictionary(words):
    # TEST_WORDS: "cat" is the only word of C, A, T; "ret", "tee", "eel", ... for E, L, R, T.
    assert upper_bound("CAT", 3, words) == tally("CAT") + clear_bonus(4)
    assert upper_bound("CAT", 3, words, played=["cat"]) == -tally("CAT")  # nothing fits
    assert upper_bound("CATQ", 0, words) == tally("CAT") - tally("Q")  # Q stays
    assert upper_bound("", 5, words) == clear_bonus(5)
    assert upper_bound("ZZZ", 0, words) == -tally("ZZZ")
    assert upper_bound("CAT", 3, words, min_word_length=4) == -tally("CAT")
    # Two words of 3 letters, 1 vowel each: 12 + 12, cleared in 2 more rounds.
    assert upper_bound("CATTEN", 0, words) == 24 + clear_bonus(2)
    assert "cat" in TEST_WORDS


def test_bound_walk_and_scan_agree(scowl, monkeypatch):
    # The profile has two ways of finding the fitting words; they must give the same profile.
    tables = BoundTables.of(scowl)
    rng = np.random.default_rng(7)
    played = [scowl.word_id(w) for w in ("tea", "eat", "rates", "stone", "notes", "onset")]
    for seed in range(12):
        letters = [letter for _, letter in deal(seed).tiles()]
        chosen = "".join(rng.choice(letters, size=int(rng.integers(1, 40)), replace=False))
        counts = letter_counts(chosen)
        monkeypatch.setattr(bound_module, "WALK_LETTERS", 100)
        walked = tables.profile(counts, 3, played)
        monkeypatch.setattr(bound_module, "WALK_LETTERS", 0)
        scanned = tables.profile(counts, 3, played)
        assert np.array_equal(walked.table, scanned.table), chosen
        assert (walked.covered, walked.longest) == (scanned.covered, scanned.longest), chosen


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_start_bound_above_games_reached(scowl, seed):
    layout = deal(seed)
    start = upper_bound(letters_of(layout, layout.tile_mask), 0, scowl)
    solution, strategy = run_dfs(layout, scowl, max_states=300)
    assert solution.score <= strategy.upper_bound <= start
    assert check_record(solution.record, scowl).ok
    assert solution.outcome.report.start_bound == start


def _allowed_by(rules: Rules, turn) -> bool:
    """Whether the word of ``turn`` keeps the length and shape rules of ``rules``."""
    turns = {direction_between(a, b) for a, b in zip(turn.path, turn.path[1:], strict=False)}
    straight = len(turns) == 1
    return len(turn.word) >= rules.min_word_length and (rules.word_shape == "path" or straight)


def test_dfs_plays_by_the_rules_it_is_given(scowl):
    rules = Rules(word_shape="line", min_word_length=4)
    solution, _ = run_dfs(deal(5), scowl, rules=rules, max_states=150)
    assert solution.record.rules == rules
    assert check_record(solution.record, scowl).ok
    assert solution.record.search["strategy"] == "dfs" and solution.outcome.states <= 150
    assert all(_allowed_by(rules, turn) for turn in solution.record.turns)
    # Under the standard rules, the game found plays words these rules forbid.
    standard, _ = run_dfs(deal(5), scowl, max_states=150)
    assert not all(_allowed_by(rules, turn) for turn in standard.record.turns)


def test_dfs_with_a_branch_cap_and_orders(scowl):
    layout = Layout.from_line(SMALL_BOARDS[2])
    optimum = Exhaustive(layout, scowl).optimum()
    by_tally, _ = run_dfs(layout, scowl)
    by_bound, strategy = run_dfs(layout, scowl, params=DfsParams(order="bound"))
    # Another order, the same proven optimum, by another search.
    assert by_bound.score == optimum and strategy.proven
    assert by_bound.outcome.states != by_tally.outcome.states
    assert check_record(by_bound.record, scowl).ok
    # Width 1 without widening is the greedy game, and proves nothing.
    capped, strategy = run_dfs(layout, scowl, params=DfsParams(branch=1, widen=False))
    greedy = solve(layout, "greedy", None, 2, max_states=100, dictionary=scowl, bound=False)
    assert capped.record.turns == greedy.record.turns
    assert not strategy.proven and strategy.upper_bound >= optimum
    capped, _ = run_dfs(deal(6), scowl, params=DfsParams(branch=1, widen=False))
    assert (
        capped.score == solve(deal(6), "greedy", max_moves=2, dictionary=scowl, bound=False).score
    )


def test_same_budget_same_game(scowl):
    first, _ = run_dfs(deal(7), scowl, max_states=120, seed=3)
    second, _ = run_dfs(deal(7), scowl, max_states=120, seed=3)
    assert first.record.to_dict()["turns"] == second.record.to_dict()["turns"]
    assert first.score == second.score and first.outcome.states == second.outcome.states


def test_time_limit_holds(scowl):
    # A clock of 1 ms a state: the time limit of 0.3 s falls after 300 states.
    game = Game(deal(9), scowl, Rules(), MAX_MOVES)
    clock = WorkClock(seconds_per_state=0.001)
    outcome = run_search(game, DfsStrategy(), time_limit=0.3, on_context=clock.attach, clock=clock)
    assert outcome.stop_reason == "budget"
    assert outcome.states == 300  # it reads the clock before every state


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"order": "random"}, "order must be one of tally, bound, not 'random'"),
        ({"branch": -1}, "branch must be between 0 and"),
        ({"tt_size": -1}, "tt_size must be between 0 and"),
    ],
)
def test_params_are_checked(bad, message):
    with pytest.raises(ValueError, match=message):
        DfsParams(**bad)


def test_tables_are_cached_per_word_list(words, scowl):
    assert BoundTables.of(words) is BoundTables.of(Dictionary.from_words(TEST_WORDS))
    assert BoundTables.of(words) is not BoundTables.of(scowl)
    game = Game(deal(1), scowl, Rules(), MAX_MOVES)
    context = SearchContext(game, None, 50, 0)
    DfsStrategy().run(context)
    assert context.report.upper_bound >= context.best_score
    assert context.report.proven is False


def test_word_tables_match_the_words(scowl):
    # The tables are read off the kernel trie; check them against the words themselves.
    tables = BoundTables.of(scowl)
    for word_id in range(0, len(scowl), 997):
        word = scowl.word(word_id)
        row = tables.position[word_id]
        assert tables.lengths[row] == len(word)
        assert np.array_equal(tables.counts[row], letter_counts(word)), word
        assert tables.vowels[row] == sum(letter in "aeiou" for letter in word)
    assert list(tables.lengths) == sorted(tables.lengths)
