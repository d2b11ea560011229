// Small progressive enhancements; every page works without this file (and the
// Content-Security-Policy allows no inline script, so behaviour lives here).
document.addEventListener("DOMContentLoaded", function () {
  // A "Print" button where printing is offered; without script the browser's own
  // print command does the same.
  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () { window.print(); });
  });

  // Type-ahead pickers: a form carries the first few parties or certificates; as the
  // person types, the list is refilled with the matches (market/web/picker_pages.py).
  // Whatever is typed is resolved on submit, listed or not.
  document.querySelectorAll("input[list]").forEach(function (input) {
    var list = document.getElementById(input.getAttribute("list"));
    if (!list || !list.dataset.choicesUrl) { return; }
    var timer = null;
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var url = list.dataset.choicesUrl + "?q=" + encodeURIComponent(input.value);
        fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
          .then(function (r) { return r.ok ? r.json() : { choices: null }; })
          .then(function (found) {
            if (!found.choices) { return; }
            list.replaceChildren.apply(list, found.choices.map(function (c) {
              var option = document.createElement("option");
              option.value = c.value;
              option.textContent = c.label;
              return option;
            }));
          })
          .catch(function () {});  // offline or signed out: keep the list as it is
      }, 200);
    });
  });
});
