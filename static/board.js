// The board without page reloads: links and forms inside #board-area fetch only the board
// (header X-Board: 1) and swap it in. Without this script they work as plain links and forms.
(function () {
  "use strict";
  function area() { return document.getElementById("board-area"); }
  function words(node) { return node ? node.textContent.replace(/\s+/g, " ").trim() : ""; }
  // What the board says (the parts marked "said": an error, the last action, whose turn it
  // is, the moves so far), and the score when it changed, go to the region #board-news
  // outside the board, which is not replaced: a screen reader reads it after each update,
  // an action here or the opponent's on another device (issue 30).
  function news(board) {
    return Array.prototype.map.call(board.querySelectorAll(".said"), words).join(" ");
  }
  var said = "";
  function announce(old, fresh) {
    var region = document.getElementById("board-news"), text = news(fresh);
    if (!region || (text === said && !fresh.querySelector("#board-error"))) { return; }
    said = text;
    if (old.dataset.score !== fresh.dataset.score) {
      text = words(fresh.querySelector(".board-score")) + ". " + text;
    }
    region.textContent = "";  // emptied first, so the same words twice are read twice
    window.setTimeout(function () { region.textContent = text; }, 50);
  }
  // Where the focus is, named so the same control is found on the next board: its id, else
  // what it does (a button's name and value, a target's point, a link's address).
  function keyOf(node) {
    if (!node || !node.getAttribute) { return ""; }
    if (node.id) { return "#" + node.id; }
    return [node.tagName, node.getAttribute("name"), node.getAttribute("value"),
      node.getAttribute("data-point"), node.getAttribute("class"), node.getAttribute("href")].join("|");
  }
  function sameIn(root, key) {
    var nodes = root.querySelectorAll("a, button, input, select, [tabindex]");
    for (var i = 0; key && i < nodes.length; i++) {
      if (keyOf(nodes[i]) === key) { return nodes[i]; }
    }
    return null;
  }
  // After an action here the focus goes to the next thing to do: a refused play's box (its
  // text kept), "Take back a move" again, "Confirm the play", where the chosen checker may
  // go, the next checker, the next button; else the status line, never the top of the page.
  // A refresh, or a change of view, leaves it where it was.
  var STAY = "button[value=undo]";
  var NEXT = ["button[value=confirm]", ".target.destination", "a.target.source", ".board-actions button"];
  function place(fresh, key, how) {
    var next = fresh.querySelector("[aria-invalid=true]");
    if (next) {
      next.focus();
      if (next.setSelectionRange) { next.setSelectionRange(next.value.length, next.value.length); }
      return;
    }
    next = sameIn(fresh, key);
    if (how === "act" && !(next && next.matches(STAY))) {
      next = null;
      for (var i = 0; !next && i < NEXT.length; i++) { next = fresh.querySelector(NEXT[i]); }
    }
    (next || fresh.querySelector("#status") || fresh).focus();
  }
  function swap(html, how) {
    var old = area();
    if (!old || !html) { return; }
    var box = document.createElement("div");
    box.innerHTML = html.trim();
    var fresh = box.firstElementChild;
    if (!fresh) { return; }
    var focused = old.contains(document.activeElement), key = focused ? keyOf(document.activeElement) : "";
    fresh.querySelectorAll("[role=alert]").forEach(function (node) {
      node.removeAttribute("role");  // said once, by #board-news
    });
    if (how !== "act") {  // a play being typed survives a refresh
      old.querySelectorAll("input[id]:not([type=hidden])").forEach(function (input) {
        var kept = fresh.querySelector("#" + input.id);
        if (kept && input.value !== input.defaultValue) { kept.value = input.value; }
      });
    }
    old.replaceWith(fresh);
    var clocks = fresh.querySelector("#board-clocks");  // their times are the server's of now
    if (clocks) { clocks.dataset.seen = String(Date.now()); }
    announce(old, fresh);
    if (focused) { place(fresh, key, how); }
  }
  // Only the answer to the latest click is drawn, and a refresh only when no click was made
  // since it set out: a slow answer must not put back the board as it was before a click.
  var clicks = 0, waiting = 0;
  function get(url, options) {
    options = options || {};
    options.headers = {"X-Board": "1"};
    options.credentials = "same-origin";
    return fetch(url, options).then(function (response) {
      return response.status === 204 ? null : response.text();
    });
  }
  function load(url, options, how) {
    var ticket = ++clicks;
    waiting += 1;
    return get(url, options).then(function (html) {
      if (ticket === clicks) { swap(html, how || "act"); }
    }).finally(function () { waiting -= 1; });
  }
  function refresh(url) {
    if (waiting) { return; }
    var ticket = clicks;
    get(url).then(function (html) {
      if (ticket === clicks && !waiting) { swap(html, "refresh"); }
    });
  }
  // Which way up the board is drawn (?view=, see matches/board/views.py) is kept per device,
  // in localStorage: not in the database, since one player's phone and the club's tablet differ.
  var VIEW_KEY = "crawford.board.view", VIEWS = ["mine", "a", "b", "table"];
  function storedView() {
    try {
      var view = window.localStorage.getItem(VIEW_KEY);
      return VIEWS.indexOf(view) >= 0 ? view : "";
    } catch (error) { return ""; }  // storage refused (a private window): the default view
  }
  function storeView(view) {
    try { window.localStorage.setItem(VIEW_KEY, view); } catch (error) { /* kept for the page */ }
  }
  document.addEventListener("click", function (event) {
    var choice = event.target.closest("#board-area a[data-view]");
    if (choice) {
      event.preventDefault();
      storeView(choice.dataset.view);
      load(choice.getAttribute("href"), {}, "keep");
      return;
    }
    var link = event.target.closest("#board-area a.target");
    if (!link) { return; }
    event.preventDefault();
    load(link.getAttribute("href").split("#")[0] || area().dataset.url);
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.closest("#board-area")) { return; }
    event.preventDefault();
    var data = new FormData(form);
    if (event.submitter && event.submitter.name) {
      data.set(event.submitter.name, event.submitter.value);
    }
    load(form.getAttribute("action"), {method: "POST", body: data});
  });
  // The game log's Position and Match IDs: focusing one selects it, ready to copy.
  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("input.copy")) { event.target.select(); }
  });
  // The game log: the arrow keys step through the actions, as its Previous and Next links do.
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || !document.getElementById("shown")) { return; }
    if (event.target.closest && event.target.closest("input, select, textarea")) { return; }
    var rel = {ArrowLeft: "prev", ArrowRight: "next"}[event.key];
    var link = rel && document.querySelector("#shown a[rel=" + rel + "]");
    if (link) { event.preventDefault(); window.location.assign(link.href); }
  });
  // ...and the list of actions, where it scrolls beside the board, shows the one on it.
  // A board page drawn the default way up is drawn again the way this device keeps it; the game
  // log's board (a page of plain links) is loaded again with the view, which its links carry on.
  document.addEventListener("DOMContentLoaded", function () {
    said = area() ? news(area()) : "";  // the page as drawn: read with it, not again
    var view = storedView(), board = area(), shown = document.getElementById("shown");
    if (view && board && board.dataset.view !== view) {
      load(board.dataset.url + "?view=" + view, {}, "keep");
    } else if (view && shown && shown.dataset.view !== view) {
      var url = new URL(window.location.href);
      url.searchParams.set("view", view);
      window.location.replace(url.toString());
    }
  });
  document.addEventListener("DOMContentLoaded", function () {
    var list = document.getElementById("log");
    var current = list && list.querySelector("[aria-current]");
    if (!current || list.scrollHeight <= list.clientHeight) { return; }
    var offset = current.getBoundingClientRect().top - list.getBoundingClientRect().top;
    list.scrollTop += offset - list.clientHeight / 2;
  });
  // Another device may act: look for a newer board every few seconds. The server looks at the
  // clocks' flag on every one of these requests (matches/board/timing.py).
  function poll(board) {
    var view = board.dataset.view ? "&view=" + board.dataset.view : "";
    var clock = board.dataset.clock ? "&c=" + board.dataset.clock : "&c=";
    refresh(board.dataset.url + "?since=" + board.dataset.version + "&n=" + board.dataset.number +
      "&s=" + encodeURIComponent(board.dataset.score) + clock + view);
  }
  setInterval(function () {
    var board = area();
    if (!board || !board.dataset.version || document.hidden) { return; }
    poll(board);
  }, 4000);
  // The clocks: the server's times as the board was drawn (data-ms, data-delay), counted down
  // here only until the next board. At 0 the page asks the server, which decides the flag.
  function clockText(ms) {
    var seconds = Math.ceil(Math.max(0, ms) / 1000);
    var hours = Math.floor(seconds / 3600), minutes = Math.floor(seconds % 3600 / 60);
    var rest = ("0" + seconds % 60).slice(-2);
    return hours ? hours + ":" + ("0" + minutes).slice(-2) + ":" + rest : minutes + ":" + rest;
  }
  setInterval(function () {
    var board = area(), clocks = document.getElementById("board-clocks");
    if (!board || !clocks || clocks.dataset.state !== "running") { return; }
    var now = Date.now();
    if (!clocks.dataset.seen) { clocks.dataset.seen = String(now); }
    var elapsed = now - Number(clocks.dataset.seen);
    clocks.querySelectorAll(".clock-time[data-running]").forEach(function (time) {
      var delay = Number(time.dataset.delay), left = Number(time.dataset.ms) - Math.max(0, elapsed - delay);
      time.textContent = clockText(left);
      var shown = time.parentNode.querySelector(".clock-delay-time");
      if (shown) { shown.textContent = clockText(delay - elapsed); }
      var asked = Number(clocks.dataset.asked || 0);
      if (left <= 0 && board.dataset.version && now - asked > 1000) {
        clocks.dataset.asked = String(now);  // once a second until the server has decided
        poll(board);
      }
    });
  }, 250);
})();
