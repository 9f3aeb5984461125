// Replay of a Letter Chess game: shows the steps that solver/web/replay.py prepared (a board
// drawn as SVG by the server for the start, each turn and the end) with a slider, previous and
// next buttons and the arrow keys. It computes nothing about the game: every number it shows
// comes in the data. Used by the exported HTML replay and by the web app.
"use strict";

var LetterChessReplay = (function () {
  // The replay the arrow keys drive: the last one mounted with {keyboard: true}.
  var keyboardTarget = null;

  function h(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) {
      if (name === "text") node.textContent = attributes[name];
      else node.setAttribute(name, attributes[name]);
    });
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  function table(className, rows) {
    return h("table", {class: className}, rows.map(function (row) {
      if (row.wide) {
        return h("tr", {}, [
          h("th", {text: row.label}),
          h("td", {class: "note", colspan: "2", text: row.value}),
        ]);
      }
      return h("tr", {}, [
        h("th", {text: row.label}),
        h("td", {class: "value", text: row.value}),
        h("td", {class: "note", text: row.note || ""}),
      ]);
    }));
  }

  function mount(root, data, options) {
    options = options || {};
    var steps = data.steps;
    var last = steps.length - 1;
    var current = 0;

    var board = h("div", {class: "replay-board", "aria-live": "polite"});
    var previous = h("button", {type: "button", class: "replay-previous", title: "Previous (←)", text: "◀ Previous"});
    var next = h("button", {type: "button", class: "replay-next", title: "Next (→)", text: "Next ▶"});
    var slider = h("input", {type: "range", class: "replay-slider", min: "0", max: String(last), value: "0", "aria-label": "Turn"});
    var stepLabel = h("span", {class: "replay-step"});
    var turnCard = h("div", {class: "replay-turn"});

    var turnRows = [];
    var turnsBody = h("tbody");
    steps.forEach(function (step, index) {
      if (step.word === undefined) return;
      var row = h("tr", {"data-step": String(index)}, [
        h("td", {text: step.label.replace("Turn ", "")}),
        h("td", {class: "word", text: step.word}),
        h("td", {class: "value", text: "+" + step.score}),
        h("td", {class: "value", text: String(step.total)}),
      ]);
      row.addEventListener("click", function () { show(index); });
      turnRows.push(row);
      turnsBody.appendChild(row);
    });
    var turnsTable = h("table", {class: "replay-turns"}, [
      h("thead", {}, [h("tr", {}, [
        h("th", {text: "#"}), h("th", {text: "word"}), h("th", {class: "value", text: "points"}),
        h("th", {class: "value", text: "score"}),
      ])]),
      turnsBody,
    ]);

    var side = h("div", {class: "replay-side"}, [
      h("div", {class: "replay-controls"}, [previous, slider, next]),
      stepLabel,
      turnCard,
    ]);
    if (turnRows.length) side.appendChild(turnsTable);
    if (data.result) {
      side.appendChild(h("h3", {text: "Result"}));
      side.appendChild(table("replay-result", data.result));
    }
    if (data.search) {
      side.appendChild(h("h3", {text: "Search"}));
      side.appendChild(table("replay-search", data.search));
    }
    var facts = [h("span", {class: "replay-board-line", text: data.board})];
    facts.push(h("span", {text: "rules: " + data.rules}));
    if (data.dictionary) facts.push(h("span", {text: "dictionary: " + data.dictionary}));

    root.innerHTML = "";
    root.classList.add("replay");
    root.appendChild(h("div", {class: "replay-facts"}, facts));
    root.appendChild(h("div", {class: "replay-body"}, [board, side]));

    function show(index) {
      current = Math.max(0, Math.min(last, index));
      var step = steps[current];
      board.innerHTML = step.svg;
      slider.value = String(current);
      previous.disabled = current === 0;
      next.disabled = current === last;
      stepLabel.textContent = step.label + (step.word !== undefined ? " of " + turnRows.length : "");
      turnCard.innerHTML = "";
      if (step.word !== undefined) {
        turnCard.appendChild(h("div", {class: "replay-word"}, [
          h("span", {class: "word", text: step.word}),
          h("span", {class: "points", text: "+" + step.score}),
          h("span", {class: "total", text: "score " + step.total}),
        ]));
        turnCard.appendChild(h("div", {text: "moves: " + (step.moves.join(", ") || "none")}));
        turnCard.appendChild(h("div", {text: "path: " + step.path}));
      } else {
        turnCard.appendChild(h("div", {text: step.caption}));
      }
      turnRows.forEach(function (row) {
        row.classList.toggle("current", row.getAttribute("data-step") === String(current));
      });
      if (options.onStep) options.onStep(current);
    }

    previous.addEventListener("click", function () { show(current - 1); });
    next.addEventListener("click", function () { show(current + 1); });
    slider.addEventListener("input", function () { show(Number(slider.value)); });

    var controller = {
      show: show,
      step: function () { return current; },
      root: root,
    };
    if (options.keyboard) keyboardTarget = controller;
    show(0);
    return controller;
  }

  document.addEventListener("keydown", function (event) {
    var replay = keyboardTarget;
    // Keys typed into a field are the field's; a hidden replay (another view) takes none.
    if (!replay || /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName) &&
        !event.target.classList.contains("replay-slider")) return;
    if (replay.root.offsetParent === null) return;
    var moves = {ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity};
    if (!(event.key in moves)) return;
    event.preventDefault();
    var delta = moves[event.key];
    replay.show(isFinite(delta) ? replay.step() + delta : (delta < 0 ? 0 : 1e9));
  });

  return {mount: mount};
})();
