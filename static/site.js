// Behaviour of every page, kept out of the HTML (the Content-Security-Policy allows no inline
// script or handler); the board's is in board.js. Each page works without this script too.
(function () {
  "use strict";
  // A form sent back refused: focus goes to the first field refused, whose error is read with
  // it (aria-describedby), or to the refusal itself when it names no field (issue 30.9). An
  // action done ("Game 2 is recorded."): to its confirmation, read first, then Tab goes on
  // into the page; not when the address names a place to go to, or a field takes the focus.
  document.addEventListener("DOMContentLoaded", function () {
    var first = document.querySelector("[aria-invalid=true]");
    if (!first) {
      first = document.querySelector("ul.errorlist.nonfield, .message.error") ||
        (window.location.hash || document.querySelector("[autofocus]") ? null :
          document.querySelector("#messages .message"));
      if (first) { first.tabIndex = -1; }
    }
    if (first) { first.focus(); }
  });
  // Print buttons (data-print): hidden without the script, which is what they need to print.
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-print]").forEach(function (button) { button.hidden = false; });
  });
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-print]")) { window.print(); }
  });
  // A search box marked data-filter-rows="SELECTOR" hides the items SELECTOR finds whose text
  // does not contain what is typed: accents and case aside, so "nicco" finds "Niccolò".
  function folded(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  document.addEventListener("input", function (event) {
    var box = event.target.closest("input[data-filter-rows]");
    if (!box) { return; }
    var wanted = folded(box.value.trim());
    document.querySelectorAll(box.dataset.filterRows).forEach(function (item) {
      item.hidden = wanted !== "" && folded(item.textContent).indexOf(wanted) === -1;
    });
  });
  // A region marked data-refresh (the director's dashboard, the live pages: bracket, pairings,
  // standings, now playing, the wall) asks its URL for its content every data-refresh-seconds
  // (the HX-Request header asks for the content only, HX-Target names the region) and swaps it
  // in; a link that had the focus keeps it. The region keeps the ETag of what it shows
  // (data-etag, first given by the page) and sends it as If-None-Match: while nothing changed
  // the server answers 304 Not Modified, with no page rendered and nothing to swap. A failure
  // leaves the content as it was and shows the note marked data-refresh-failed. Without the
  // script the dashboard reloads itself (<noscript>); the other pages stay as they are.
  function selectorOf(element) {  // how to find an element again in the new content
    if (element.id) { return "#" + CSS.escape(element.id); }
    var href = element.getAttribute("href");
    return href ? "[href=\"" + CSS.escape(href) + "\"]" : null;
  }
  // The answer is the region's content, or (data-refresh-pick="#a,#b": a part of a page with
  // no content-only answer, the check-in list) the whole page, from which the region and the
  // other elements named are taken.
  function swap(region, html) {
    var pick = region.dataset.refreshPick;
    if (!pick) { region.innerHTML = html; return; }
    var page = new DOMParser().parseFromString(html, "text/html");
    pick.split(",").forEach(function (selector) {
      var fresh = page.querySelector(selector), shown = document.querySelector(selector);
      if (!fresh || !shown) { return; }
      if (shown === region) { region.innerHTML = fresh.innerHTML; } else { shown.replaceWith(fresh); }
    });
  }
  function refresh(region) {
    var failed = document.querySelector("[data-refresh-failed]");
    var headers = { "HX-Request": "true", "HX-Target": region.id };
    if (region.dataset.etag) { headers["If-None-Match"] = region.dataset.etag; }
    // an If-None-Match of the script's own makes the browser hand the 304 over as it is
    fetch(region.dataset.refresh, {
      headers: headers, credentials: "same-origin", cache: "no-store"
    }).then(function (response) {
      if (response.status === 304) { return null; }  // nothing changed
      // signed out meanwhile: the answer is the sign-in page, not the dashboard
      if (!response.ok || response.redirected) { throw new Error(String(response.status)); }
      var etag = response.headers.get("ETag");
      if (etag) { region.dataset.etag = etag; } else { delete region.dataset.etag; }
      return response.text();
    }).then(function (html) {
      if (failed) { failed.hidden = true; }
      if (html === null) { return; }
      var focused = document.activeElement;
      var kept = focused !== region && region.contains(focused) ? selectorOf(focused) : null;
      var typed = {};  // what was typed in a search box of the region stays typed
      region.querySelectorAll("input[type=search][id]").forEach(function (input) {
        typed[input.id] = input.value;
      });
      swap(region, html);
      var again = kept && region.querySelector(kept);
      if (again) { again.focus(); }
      Object.keys(typed).forEach(function (id) {
        var input = document.getElementById(id);
        if (input && typed[id]) {
          input.value = typed[id];
          input.dispatchEvent(new Event("input", { bubbles: true }));  // filters again
        }
      });
      if (window.htmx) { window.htmx.process(region); }  // its check-in buttons work as before
      // content marked data-refresh-stop is final (a job done or failed): no more asking
      if (region.querySelector("[data-refresh-stop]")) { window.clearInterval(region.refreshTimer); }
      region.dispatchEvent(new CustomEvent("refreshed", { bubbles: true }));
    }).catch(function () {
      if (failed) { failed.hidden = false; }
    });
  }
  // A page's pause control (data-pause, templates/includes/pause.html): while pressed, its
  // regions ask nothing and the wall keeps its screen; pressed again, they catch up at once.
  function paused() { return document.documentElement.dataset.paused === "true"; }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-pause-control]").forEach(function (control) {
      control.hidden = false;
    });
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-pause]");
    if (!button) { return; }
    var now = !paused();
    document.documentElement.dataset.paused = String(now);
    button.setAttribute("aria-pressed", String(now));
    var note = document.querySelector("[data-paused-note]");
    if (note) { note.hidden = !now; }
    if (!now) { document.querySelectorAll("[data-refresh]").forEach(refresh); }
  });
  // The wall display (data-wall, data-wall-seconds): one of its screens (data-screen) at a
  // time, the next every data-wall-seconds, each shrunk to fit the screen when it is larger
  // (a bracket). A refresh of its region keeps the screen it was showing.
  function fit(screen) {
    screen.style.transform = "";
    var room = screen.parentElement.getBoundingClientRect();
    var wide = screen.scrollWidth, high = screen.scrollHeight + 24;  // its heading's margins
    var scale = Math.min(1, room.width / wide, (window.innerHeight - room.top - 24) / high);
    if (scale < 1) { screen.style.transform = "scale(" + scale.toFixed(3) + ")"; }
  }
  function show(wall, wanted) {
    var screens = Array.prototype.slice.call(wall.querySelectorAll("[data-screen]"));
    if (!screens.length) { return; }
    var index = screens.findIndex(function (s) { return s.dataset.screen === wanted; });
    var screen = screens[index === -1 ? 0 : index];
    screens.forEach(function (s) { s.hidden = s !== screen; });
    wall.dataset.showing = screen.dataset.screen;
    fit(screen);
  }
  function next(wall) {
    var screens = Array.prototype.slice.call(wall.querySelectorAll("[data-screen]"));
    var index = screens.findIndex(function (s) { return s.dataset.screen === wall.dataset.showing; });
    if (screens.length) { show(wall, screens[(index + 1) % screens.length].dataset.screen); }
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-wall]").forEach(function (wall) {
      var seconds = parseInt(wall.dataset.wallSeconds, 10) || 20;
      show(wall, null);
      window.setInterval(function () { if (!paused()) { next(wall); } }, seconds * 1000);
      wall.addEventListener("refreshed", function () { show(wall, wall.dataset.showing); });
      window.addEventListener("resize", function () { show(wall, wall.dataset.showing); });
    });
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-refresh]").forEach(function (region) {
      var seconds = parseInt(region.dataset.refreshSeconds, 10) || 15;
      if (region.querySelector("[data-refresh-stop]")) { return; }  // final already
      region.refreshTimer = window.setInterval(function () {
        if (!document.hidden && !paused()) { refresh(region); }  // out of sight: nothing
      }, seconds * 1000);
      document.addEventListener("visibilitychange", function () {
        if (!document.hidden && !paused()) { refresh(region); }  // in sight: up to date at once
      });
    });
  });
}());
