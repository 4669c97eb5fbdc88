// Behaviour of every page, kept out of the HTML (the Content-Security-Policy allows no inline
// script or handler); the board's is in board.js. Each page works without this script too.
(function () {
  "use strict";
  // A menu marked data-submit-on-change (the language menu) sends its form as soon as a choice
  // is made; without the script its <noscript> button does.
  document.addEventListener("change", function (event) {
    var menu = event.target.closest("select[data-submit-on-change]");
    if (menu && menu.form) { menu.form.submit(); }
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
}());
