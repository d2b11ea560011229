// Starts Swagger UI (templates/swagger_ui.html): kept out of the page so the
// Content-Security-Policy can refuse every inline script.
window.addEventListener("load", function () {
  var box = document.getElementById("swagger-ui-container");
  var config = { url: box.dataset.specUrl, dom_id: "#swagger-ui-container" };
  var extra = JSON.parse(box.dataset.config || "{}");
  for (var name in extra) { config[name] = extra[name]; }
  window.ui = SwaggerUIBundle(config);
});
