/* Small progressive enhancements; every page works without this file. */
(function () {
  "use strict";

  // "Cancel" inside a panel loaded into a [data-slot]: close the panel in place instead of
  // following the link, and give focus back to the control that opened it.
  document.addEventListener("click", function (event) {
    var trigger = event.target.closest("[data-dismiss]");
    if (!trigger) return;
    var slot = trigger.closest("[data-slot]");
    if (!slot) return;
    event.preventDefault();
    slot.replaceChildren();
    var back = slot.getAttribute("data-return-focus");
    var target = back && document.querySelector(back);
    if (target) target.focus();
  });

  // Escape closes an open panel the same way.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var slot = document.activeElement && document.activeElement.closest("[data-slot]");
    var cancel = slot && slot.querySelector("[data-dismiss]");
    if (cancel) cancel.click();
  });

  // Keep aria-busy in step with HTMX requests so screen readers wait for the new content.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var target = event.detail.target;
    if (target) target.setAttribute("aria-busy", "true");
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail.target;
    if (target) target.removeAttribute("aria-busy");
  });
  document.addEventListener("htmx:responseError", function (event) {
    var target = event.detail.target;
    if (target) target.removeAttribute("aria-busy");
  });
})();
