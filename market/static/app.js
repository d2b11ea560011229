// Small progressive enhancements; every page works without this file (and the
// Content-Security-Policy allows no inline script, so behaviour lives here).
document.addEventListener("DOMContentLoaded", function () {
  // A "Print" button where printing is offered; without script the browser's own
  // print command does the same.
  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () { window.print(); });
  });
});
