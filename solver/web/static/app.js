// The Letter Chess web app: board editor, solve with live progress, replay, and play mode.
// The page only collects clicks and shows what the server answers: the server parses boards,
// draws them (SVG), generates plays, runs the referee, bounds and solves (README, Web app).
"use strict";

(function () {
  var $ = function (id) { return document.getElementById(id); };

  var state = {
    info: null,
    board: null,           // the editor's board, one-line form, as the server read it
    record: null,          // the record the replay view shows
    game: null,            // play mode: {board, rules, turns}
    answer: null,          // the server's last word on that game (POST /api/game)
    pending: {moves: [], path: []},  // the turn being made
    dealBound: null,
    job: null,
    events: null,
  };

  // --- talking to the server ------------------------------------------------------------

  function api(path, body) {
    var options = body === undefined ? {} : {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify(body),
    };
    return fetch(path, options).then(function (response) {
      return response.json().catch(function () {
        throw new Error("the server answered " + response.status);
      }).then(function (data) {
        if (!response.ok) throw new Error(data.error || "the server answered " + response.status);
        return data;
      });
    });
  }

  function say(id, text, kind) {
    var node = $(id);
    node.textContent = text || "";
    node.classList.toggle("error", kind === "error");
    node.classList.toggle("ok", kind === "ok");
  }

  function download(name, text, type) {
    var link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], {type: type}));
    link.download = name;
    document.body.appendChild(link);
    link.click();
    setTimeout(function () { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
  }

  function readFile(input) {
    return new Promise(function (resolve, reject) {
      var file = input.files[0];
      input.value = "";
      if (!file) return reject(new Error("no file chosen"));
      file.text().then(function (text) {
        try { resolve(JSON.parse(text)); }
        catch (error) { reject(new Error(file.name + " is not JSON (" + error.message + ")")); }
      }, reject);
    });
  }

  // --- views and the address bar --------------------------------------------------------

  function showView(name) {
    document.querySelectorAll(".view").forEach(function (view) {
      view.hidden = view.id !== "view-" + name;
    });
    document.querySelectorAll(".tab").forEach(function (tab) {
      tab.classList.toggle("active", tab.dataset.view === name);
    });
    state.view = name;
    updateAddress();
  }

  // A game's turns in the address: "c7c4-d1c1b2" is a turn moving c7 to c4 and reading d1 c1
  // b2; turns are joined by "_". The server reads the words along the paths.
  function encodeTurns(turns) {
    return turns.map(function (turn) {
      return turn.moves.map(function (m) { return m[0] + m[1]; }).join("") + "-" +
        turn.path.join("");
    }).join("_");
  }

  function decodeTurns(text) {
    var pairs = function (s) { return s.match(/[a-z][0-9]/gi) || []; };
    return text.split("_").filter(Boolean).map(function (part) {
      var halves = part.split("-");
      var moves = pairs(halves[0]);
      var turnMoves = [];
      for (var i = 0; i + 1 < moves.length; i += 2) turnMoves.push([moves[i], moves[i + 1]]);
      return {moves: turnMoves, path: pairs(halves[1] || "")};
    });
  }

  function updateAddress() {
    var params = new URLSearchParams();
    var board = state.view === "play" && state.game ? state.game.board : state.board;
    if (board) params.set("board", board);
    if (state.view && state.view !== "edit") params.set("view", state.view);
    if (state.view === "play" && state.game && state.game.turns.length) {
      params.set("turns", encodeTurns(state.game.turns));
    }
    history.replaceState(null, "", "?" + params.toString().replace(/%2F/g, "/"));
  }

  // --- the board editor -----------------------------------------------------------------

  var cells = [];  // the 63 inputs in reading order: row 9 a..g first, row 1 last

  function buildEditor() {
    var grid = $("editor-grid");
    var pattern = state.info.standard_pattern.replace(/\//g, "");
    for (var r = 0; r < 9; r++) {
      grid.appendChild(label(String(9 - r)));
      for (var c = 0; c < 7; c++) {
        var input = document.createElement("input");
        input.maxLength = 1;
        input.autocomplete = "off";
        input.spellcheck = false;
        input.className = "cell" + (pattern[r * 7 + c] === "." ? " gap" : "");
        input.dataset.square = "abcdefg"[c] + (9 - r);
        input.dataset.index = String(cells.length);
        input.setAttribute("aria-label", input.dataset.square);
        input.addEventListener("input", onCellInput);
        input.addEventListener("keydown", onCellKey);
        input.addEventListener("paste", onCellPaste);
        grid.appendChild(input);
        cells.push(input);
      }
    }
    grid.appendChild(label(""));
    "abcdefg".split("").forEach(function (name) { grid.appendChild(label(name)); });

    function label(text) {
      var span = document.createElement("span");
      span.className = "label";
      span.textContent = text;
      return span;
    }
  }

  function paintCell(input) {
    var letter = input.value;
    input.classList.toggle("vowel", letter !== "" && state.info.vowels.indexOf(letter) >= 0);
    input.classList.toggle("consonant", letter !== "" && state.info.vowels.indexOf(letter) < 0);
  }

  function focusCell(index) {
    var cell = cells[Math.max(0, Math.min(cells.length - 1, index))];
    cell.focus();
    cell.select();
  }

  function onCellInput(event) {
    var input = event.target;
    var typed = input.value.slice(-1).toUpperCase();
    input.value = /[A-Z]/.test(typed) ? typed : "";
    paintCell(input);
    if (input.value || typed === "." || typed === " ") focusCell(Number(input.dataset.index) + 1);
    editorChanged();
  }

  function onCellKey(event) {
    var index = Number(event.target.dataset.index);
    var step = {ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7}[event.key];
    if (/^[a-z]$/i.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey) {
      // A letter replaces the square's letter, wherever the caret is.
      event.preventDefault();
      event.target.value = event.key.toUpperCase();
      paintCell(event.target);
      focusCell(index + 1);
      editorChanged();
    } else if (step) {
      event.preventDefault();
      focusCell(index + step);
    } else if (event.key === "Backspace" && event.target.value === "") {
      event.preventDefault();
      focusCell(index - 1);
      cells[Math.max(0, index - 1)].value = "";
      paintCell(cells[Math.max(0, index - 1)]);
      editorChanged();
    } else if (event.key === "." || event.key === " ") {
      event.preventDefault();
      event.target.value = "";
      paintCell(event.target);
      focusCell(index + 1);
      editorChanged();
    }
  }

  function onCellPaste(event) {
    var text = (event.clipboardData || window.clipboardData).getData("text");
    if (text.indexOf("/") >= 0 || text.indexOf("\n") >= 0) {
      event.preventDefault();
      useBoard({board: text});
    }
  }

  function editorLine() {
    var rows = [];
    for (var r = 0; r < 9; r++) {
      rows.push(cells.slice(r * 7, r * 7 + 7).map(function (cell) {
        return cell.value || ".";
      }).join(""));
    }
    return rows.join("/");
  }

  function fillEditor(line) {
    var letters = line.replace(/\//g, "");
    cells.forEach(function (cell, i) {
      cell.value = letters[i] === "." ? "" : letters[i];
      paintCell(cell);
    });
  }

  var editorTimer = null;
  function editorChanged() {
    clearTimeout(editorTimer);
    editorTimer = setTimeout(function () { useBoard({board: editorLine()}, true); }, 250);
  }

  // Read a board (typed, pasted or dealt by seed) through the server; show it or the error.
  function useBoard(request, fromEditor) {
    return api("/api/board", request).then(function (answer) {
      state.board = answer.board;
      if (!fromEditor) fillEditor(answer.board);
      $("board-line").value = answer.board;
      say("board-status", answer.tiles + " tiles");
      say("board-error", "");
      updateAddress();
      return answer;
    }, function (error) {
      say("board-error", error.message, "error");
    });
  }

  function requireBoard() {
    if (!state.board) throw new Error("enter a board first");
    return state.board;
  }

  // --- solving --------------------------------------------------------------------------

  // The move limit K chosen, or "all" for no limit (the real game).
  function moveLimit() {
    var value = $("max-moves").value;
    return value === "all" ? "all" : Number(value);
  }

  function solveSettings() {
    var timeText = $("solve-time").value.trim();
    var statesText = $("solve-states").value.trim();
    return {
      board: requireBoard(),
      strategy: $("solve-strategy").value,
      time_limit: timeText === "" ? null : Number(timeText),
      max_states: statesText === "" ? null : Number(statesText),
      max_moves: moveLimit(),
      seed: Number($("solve-seed").value || 0),
    };
  }

  function startSolve() {
    say("solve-error", "");
    var settings;
    try { settings = solveSettings(); } catch (error) { return say("solve-error", error.message, "error"); }
    $("solve-start").disabled = true;
    say("solve-progress", "Starting…");
    api("/api/solve", settings).then(function (answer) {
      state.job = answer.job;
      $("solve-stop").disabled = false;
      var events = new EventSource(answer.events);
      state.events = events;
      events.addEventListener("progress", function (event) { showProgress(JSON.parse(event.data)); });
      events.addEventListener("done", function (event) {
        events.close();
        solveFinished(JSON.parse(event.data));
      });
      events.onerror = function () {
        if (events.readyState === EventSource.CLOSED) return;
        events.close();
        solveEnded();
        say("solve-error", "lost contact with the server during the solve", "error");
      };
    }, function (error) {
      solveEnded();
      say("solve-progress", "");
      say("solve-error", error.message, "error");
    });
  }

  function progressText(progress) {
    var parts = [
      "best " + (progress.best === null ? "–" : progress.best),
      progress.states.toLocaleString("en") + " states",
      progress.seconds.toFixed(1) + " s",
    ];
    return parts.join(" · ");
  }

  function showProgress(progress) {
    // The phases of a solve: "preparing kernels", "searching", "computing the bound".
    var doing = progress.phase.charAt(0).toUpperCase() + progress.phase.slice(1) + "… ";
    say("solve-progress", doing + progressText(progress));
  }

  function solveEnded() {
    $("solve-start").disabled = false;
    $("solve-stop").disabled = true;
    state.job = null;
  }

  function solveFinished(progress) {
    solveEnded();
    if (progress.error) return say("solve-error", progress.error, "error");
    var result = progress.result;
    var summary = "Solved: score " + result.score;
    if (result.bound !== null) summary += " · bound " + result.bound;
    if (result.gap !== null) summary += " · gap " + result.gap.toFixed(3);
    say("solve-progress", summary + " (" + progressText(progress) + ")", "ok");
    showReplay(result.record, result.replay);
    say("replay-message", summary, "ok");
    showView("replay");
  }

  function stopSolve() {
    if (!state.job) return;
    api("/api/solve/" + state.job + "/stop", {}).catch(function (error) {
      say("solve-error", error.message, "error");
    });
  }

  function showBound() {
    var board;
    try { board = requireBoard(); } catch (error) { return say("board-error", error.message, "error"); }
    say("board-status", "Computing the upper bound…");
    api("/api/bound", {board: board, max_moves: moveLimit()}).then(function (b) {
      say("board-status", "Upper bound " + b.bound + ": no game scores more (" + b.for + ")");
    }, function (error) {
      say("board-error", error.message, "error");
    });
  }

  // --- the replay view ------------------------------------------------------------------

  function showReplay(record, data) {
    state.record = record;
    LetterChessReplay.mount($("replay-root"), data, {keyboard: true});
  }

  function checkRecord() {
    if (!state.record) return say("replay-message", "no record to check", "error");
    api("/api/check", state.record).then(function (verdict) {
      var r = verdict.result;
      var text = verdict.legal
        ? "Legal game: " + r.rounds + " turns, " + r.word_points + " word points, " +
          (r.cleared ? "cleared, bonus " + r.bonus : r.remaining.length + " tiles left, penalty " + r.penalty) +
          ", score " + r.score + " (checked against " + verdict.dictionary + ")"
        : "Not legal: " + verdict.message.replace(/^illegal: /, "");
      say("replay-message", text, verdict.legal ? "ok" : "error");
    }, function (error) { say("replay-message", error.message, "error"); });
  }

  function openRecord() {
    readFile($("replay-open")).then(function (record) {
      return api("/api/replay", record).then(function (data) {
        showReplay(record, data);
        say("replay-message", "");
      });
    }).catch(function (error) { say("replay-message", error.message, "error"); });
  }

  function downloadHtmlReplay() {
    if (!state.record) return say("replay-message", "no record to export", "error");
    fetch("/api/replay.html", {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify(state.record),
    }).then(function (response) {
      if (!response.ok) return response.json().then(function (e) { throw new Error(e.error); });
      return response.text().then(function (html) {
        download("letterchess-replay.html", html, "text/html");
      });
    }).catch(function (error) { say("replay-message", error.message, "error"); });
  }

  // --- play mode ------------------------------------------------------------------------

  function gameRequest(extra) {
    var request = {
      board: state.game.board,
      rules: state.game.rules,
      turns: state.game.turns,
      max_moves: moveLimit(),
    };
    Object.keys(extra || {}).forEach(function (key) { request[key] = extra[key]; });
    return request;
  }

  // Start playing a game (a board, or a board and turns already played); the server replays
  // it with the referee and answers with the turns complete (words, scores).
  function startGame(game) {
    state.pending = {moves: [], path: []};
    state.dealBound = null;
    say("play-message", "");
    $("play-hints").innerHTML = "";
    return api("/api/game", {
      board: game.board, rules: game.rules, turns: game.turns,
      max_moves: moveLimit(),
    }).then(function (answer) {
      showView("play");
      gameAnswered(answer);
      api("/api/bound", {board: answer.board, rules: answer.rules,
                         max_moves: moveLimit()}).then(function (b) {
        state.dealBound = b.bound;
        showBoundOfPosition();
      }, function () {});
    });
  }

  function gameAnswered(answer) {
    state.answer = answer;
    state.game = {board: answer.board, rules: answer.rules, turns: answer.turns};
    $("play-points").textContent = answer.points;
    $("play-rounds").textContent = answer.rounds;
    $("play-left").textContent = answer.tiles_left;
    var list = $("play-turns");
    list.innerHTML = "";
    answer.turns.forEach(function (turn) {
      var item = document.createElement("li");
      var moves = turn.moves.map(function (m) { return m[0] + "-" + m[1]; }).join(", ");
      item.innerHTML = "<b></b> <span class='points'></span> <span class='muted'></span>";
      item.children[0].textContent = turn.word;
      item.children[1].textContent = "+" + turn.score;
      item.children[2].textContent = moves ? "moves " + moves : "";
      list.appendChild(item);
    });
    if (!answer.turns.length) list.innerHTML = "<li class='empty'>none yet</li>";
    showResult();
    updateAddress();
    drawPlayBoard();
    showBoundOfPosition();
  }

  function showResult() {
    var box = $("play-result");
    box.innerHTML = "";
    var result = state.answer.result;
    if (!state.answer.over) return;
    var rows = [["word points", result.word_points], ["rounds", result.rounds]];
    if (result.cleared) rows.push(["bonus", "+" + result.bonus]);
    else rows.push(["penalty", "-" + result.penalty + (result.remaining ? "  (" + result.remaining.split("").join(" ") + ")" : "")]);
    rows.push(["score", result.score]);
    if (state.dealBound) rows.push(["gap", (result.score / state.dealBound).toFixed(3) + "  (score / bound " + state.dealBound + ")"]);
    var heading = document.createElement("h3");
    heading.textContent = result.cleared ? "Game over: board cleared" : "Game over: no play left";
    var table = document.createElement("table");
    table.className = "result";
    rows.forEach(function (row) {
      var tr = table.insertRow();
      tr.insertCell().textContent = row[0];
      tr.insertCell().textContent = String(row[1]);
    });
    box.appendChild(heading);
    box.appendChild(table);
  }

  var boundRequest = 0;
  function showBoundOfPosition() {
    if (!state.answer) return;
    var ticket = ++boundRequest;
    var answer = state.answer;
    if (answer.over) {
      say("play-bound", "");
      return showResult();
    }
    say("play-bound", "Bound: computing…");
    api("/api/bound", gameRequest()).then(function (b) {
      if (ticket !== boundRequest) return;
      var text = "Best possible from here: " + b.bound + " (" + b.points_so_far +
        " so far + at most " + b.future + " to come)";
      if (state.dealBound) {
        text += " · the deal's bound " + state.dealBound +
          " · still reachable " + (b.bound / state.dealBound).toFixed(3);
      }
      say("play-bound", text);
    }, function (error) { say("play-bound", error.message, "error"); });
  }

  var drawRequest = 0;
  function drawPlayBoard() {
    var ticket = ++drawRequest;
    var pending = state.pending;
    var last = pending.path.length ? [pending.path[pending.path.length - 1]] : [];
    // data-busy marks a board about to be redrawn (the browser tests wait for it to go).
    $("play-board").dataset.busy = "yes";
    return api("/api/position", gameRequest({moves: pending.moves, path: pending.path, marked: last}))
      .finally(function () {
        if (ticket === drawRequest) delete $("play-board").dataset.busy;
      })
      .then(function (answer) {
        if (ticket !== drawRequest) return;
        $("play-board").innerHTML = answer.svg;
        $("play-word").textContent = answer.word || "–";
        $("play-moves").textContent = pending.moves.map(function (m) {
          return m[0] + "-" + m[1];
        }).join(", ") || "none";
      }, function (error) { say("play-message", error.message, "error"); });
  }

  function onBoardClick(event) {
    var square = event.target.closest("[data-square]");
    if (!square || !state.game || state.answer.over) return;
    var name = square.dataset.square;
    var hasTile = square.querySelector(".tile") !== null;
    var path = state.pending.path;
    say("play-message", "");
    if (hasTile) {
      var at = path.indexOf(name);
      if (at < 0) path.push(name);
      else if (at === path.length - 1) path.pop();
      else return say("play-message", name + " is already in the word", "error");
    } else if (path.length) {
      // The tile clicked last goes to this empty square; click it again to spell with it.
      state.pending.moves.push([path.pop(), name]);
    } else {
      return say("play-message", "click a tile first, then an empty square to move it there");
    }
    drawPlayBoard();
  }

  function submitTurn() {
    var pending = state.pending;
    if (!pending.path.length) return say("play-message", "click the tiles of a word first", "error");
    api("/api/play", gameRequest({moves: pending.moves, path: pending.path})).then(function (answer) {
      if (!answer.legal) {
        say("play-message", "Not legal: " + answer.reason, "error");
        return;
      }
      state.pending = {moves: [], path: []};
      $("play-hints").innerHTML = "";
      say("play-message", answer.turn.word + " +" + answer.turn.score, "ok");
      gameAnswered(answer.game);
    }, function (error) { say("play-message", error.message, "error"); });
  }

  function undo() {
    if (state.pending.path.length) state.pending.path.pop();
    else if (state.pending.moves.length) state.pending.moves.pop();
    drawPlayBoard();
  }

  function showHints() {
    say("play-message", "Looking for the best plays…");
    api("/api/plays", gameRequest({top: 10})).then(function (answer) {
      var list = $("play-hints");
      list.innerHTML = "";
      say("play-message", answer.count + " plays with " + (answer.max_moves === null ? "any number of" :
        "at most " + answer.max_moves) + " moves; the best " + answer.plays.length + " (click one to set it up):");
      answer.plays.forEach(function (play) {
        var item = document.createElement("li");
        var moves = play.moves.map(function (m) { return m[0] + "-" + m[1]; }).join(", ");
        item.innerHTML = "<b></b> <span class='points'></span> <span class='muted'></span>";
        item.children[0].textContent = play.word;
        item.children[1].textContent = play.score;
        item.children[2].textContent = (moves ? "moves " + moves + " · " : "") + "path " + play.path.join(" ");
        item.addEventListener("click", function () {
          state.pending = {moves: play.moves.slice(), path: play.path.slice()};
          drawPlayBoard();
        });
        list.appendChild(item);
      });
    }, function (error) { say("play-message", error.message, "error"); });
  }

  function saveGame() {
    if (!state.answer) return;
    download("letterchess-game.json", JSON.stringify(state.answer.record, null, 2) + "\n",
             "application/json");
  }

  function loadGame() {
    readFile($("play-load")).then(function (record) {
      if (!record || typeof record !== "object" || typeof record.board !== "string") {
        throw new Error("not a game record: it has no board");
      }
      return startGame({board: record.board, rules: record.rules, turns: record.turns || []});
    }).catch(function (error) { say("play-message", error.message, "error"); });
  }

  function replayGame() {
    if (!state.answer) return;
    api("/api/replay", gameRequest()).then(function (data) {
      showReplay(state.answer.record, data);
      say("replay-message", "");
      showView("replay");
    }, function (error) { say("play-message", error.message, "error"); });
  }

  // --- start ----------------------------------------------------------------------------

  function wire() {
    document.querySelectorAll(".tab").forEach(function (tab) {
      tab.addEventListener("click", function () {
        if (tab.dataset.view === "play" && !state.game) {
          if (!state.board) return showView("edit");
          return startGame({board: state.board, turns: []}).catch(function (error) {
            say("board-error", error.message, "error");
          });
        }
        showView(tab.dataset.view);
      });
    });
    $("board-use").addEventListener("click", function () { useBoard({board: $("board-line").value}); });
    $("board-line").addEventListener("keydown", function (event) {
      if (event.key === "Enter") useBoard({board: $("board-line").value});
    });
    $("deal-random").addEventListener("click", function () {
      useBoard({seed: Number($("deal-seed").value || 0)});
    });
    $("board-clear").addEventListener("click", function () {
      fillEditor("......./......./......./......./......./......./......./......./.......");
      state.board = null;
      $("board-line").value = "";
      say("board-status", "");
      say("board-error", "");
      updateAddress();
      focusCell(0);
    });
    $("solve-start").addEventListener("click", startSolve);
    $("solve-stop").addEventListener("click", stopSolve);
    $("bound-button").addEventListener("click", showBound);
    $("play-start").addEventListener("click", function () {
      var board;
      try { board = requireBoard(); } catch (error) { return say("board-error", error.message, "error"); }
      startGame({board: board, turns: []}).catch(function (error) {
        say("board-error", error.message, "error");
      });
    });
    $("replay-download").addEventListener("click", function () {
      if (!state.record) return say("replay-message", "no record to download", "error");
      download("letterchess-game.json", JSON.stringify(state.record, null, 2) + "\n", "application/json");
    });
    $("replay-check").addEventListener("click", checkRecord);
    $("replay-html").addEventListener("click", downloadHtmlReplay);
    $("replay-open").addEventListener("change", openRecord);
    $("play-board").addEventListener("click", onBoardClick);
    $("play-submit").addEventListener("click", submitTurn);
    $("play-undo").addEventListener("click", undo);
    $("play-clear").addEventListener("click", function () {
      state.pending = {moves: [], path: []};
      drawPlayBoard();
    });
    $("play-hint").addEventListener("click", showHints);
    $("play-save").addEventListener("click", saveGame);
    $("play-load").addEventListener("change", loadGame);
    $("play-restart").addEventListener("click", function () {
      startGame({board: state.game.board, rules: state.game.rules, turns: []});
    });
    $("play-replay").addEventListener("click", replayGame);
  }

  function start(info) {
    state.info = info;
    $("info").textContent = info.dictionary.name + " · " +
      info.dictionary.words.toLocaleString("en") + " words · v" + info.version;
    info.strategies.forEach(function (strategy) {
      var option = document.createElement("option");
      option.value = strategy.name;
      option.textContent = strategy.name;
      option.title = strategy.summary;
      $("solve-strategy").appendChild(option);
    });
    $("solve-strategy").value = "auto";
    buildEditor();
    wire();
    var params = new URLSearchParams(location.search);
    var board = params.get("board");
    var view = params.get("view") || "edit";
    showView("edit");
    if (!board) return;
    useBoard({board: board}).then(function (answer) {
      if (!answer) return;
      if (view === "play") {
        startGame({board: answer.board, turns: decodeTurns(params.get("turns") || "")})
          .catch(function (error) { say("board-error", error.message, "error"); });
      }
    });
  }

  api("/api/info").then(start, function (error) {
    document.body.insertAdjacentHTML("afterbegin", "<p class='error'></p>");
    document.body.firstChild.textContent = "Cannot reach the server: " + error.message;
  });
})();
