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
  // A region marked data-refresh (the director's dashboard) asks its URL for its content every
  // data-refresh-seconds (the HX-Request header asks for the content only) and swaps it in;
  // a link that had the focus keeps it. A failure leaves the content as it was and shows the
  // note marked data-refresh-failed. Without the script the page reloads itself (<noscript>).
  function selectorOf(element) {  // how to find an element again in the new content
    if (element.id) { return "#" + CSS.escape(element.id); }
    var href = element.getAttribute("href");
    return href ? "[href=\"" + CSS.escape(href) + "\"]" : null;
  }
  function refresh(region) {
    var failed = document.querySelector("[data-refresh-failed]");
    fetch(region.dataset.refresh, {
      headers: { "HX-Request": "true" }, credentials: "same-origin", cache: "no-store"
    }).then(function (response) {
      // signed out meanwhile: the answer is the sign-in page, not the dashboard
      if (!response.ok || response.redirected) { throw new Error(String(response.status)); }
      return response.text();
    }).then(function (html) {
      var focused = document.activeElement;
      var kept = focused !== region && region.contains(focused) ? selectorOf(focused) : null;
      region.innerHTML = html;
      var again = kept && region.querySelector(kept);
      if (again) { again.focus(); }
      if (failed) { failed.hidden = true; }
    }).catch(function () {
      if (failed) { failed.hidden = false; }
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-refresh]").forEach(function (region) {
      var seconds = parseInt(region.dataset.refreshSeconds, 10) || 15;
      window.setInterval(function () {
        if (!document.hidden) { refresh(region); }  // a tab out of sight asks nothing
      }, seconds * 1000);
      document.addEventListener("visibilitychange", function () {
        if (!document.hidden) { refresh(region); }  // back in sight: up to date at once
      });
    });
  });
}());
