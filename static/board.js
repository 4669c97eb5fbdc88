// The board without page reloads: links and forms inside #board-area fetch only the board
// (header X-Board: 1) and swap it in. Without this script they work as plain links and forms.
(function () {
  "use strict";
  function area() { return document.getElementById("board-area"); }
  function swap(html) {
    var old = area();
    if (!old || !html) { return; }
    var box = document.createElement("div");
    box.innerHTML = html.trim();
    var fresh = box.firstElementChild;
    if (fresh) { old.replaceWith(fresh); }
  }
  function load(url, options) {
    options = options || {};
    options.headers = Object.assign({"X-Board": "1"}, options.headers || {});
    options.credentials = "same-origin";
    return fetch(url, options).then(function (response) {
      if (response.status === 204) { return null; }
      return response.text();
    }).then(swap);
  }
  document.addEventListener("click", function (event) {
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
  // Another device may act: look for a newer board every few seconds.
  setInterval(function () {
    var board = area();
    if (!board || !board.dataset.version || document.hidden) { return; }
    var url = board.dataset.url + "?since=" + board.dataset.version + "&n=" + board.dataset.number;
    load(url);
  }, 4000);
})();
