// The certificate page's print button (templates/certificate.html): a static script, so
// the Content-Security-Policy can refuse inline ones.
document.querySelectorAll("[data-print]").forEach(function (button) {
  button.addEventListener("click", function () { window.print(); });
});
