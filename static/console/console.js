/* Small progressive enhancements; every page works without this file. */
(function () {
  "use strict";

  // "Cancel" inside a panel loaded into a [data-slot]: close the panel in place instead of
  // following the link, and give focus back to the control that opened it. A slot marked
  // data-refill (the inline editor's card) gets its closed state from the server, at the cancel
  // link's address; focus goes back once that has settled.
  function returnFocus(slot) {
    var back = slot.getAttribute("data-return-focus");
    var target = back && document.querySelector(back);
    if (target) target.focus();
  }
  document.addEventListener("click", function (event) {
    var trigger = event.target.closest("[data-dismiss]");
    if (!trigger) return;
    var slot = trigger.closest("[data-slot]");
    if (!slot) return;
    event.preventDefault();
    if (slot.hasAttribute("data-refill")) {
      htmx.ajax("GET", trigger.getAttribute("href"), { source: trigger, target: slot });
      return;
    }
    slot.replaceChildren();
    returnFocus(slot);
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var config = event.detail.requestConfig;
    var source = config && config.elt;
    var slot = event.detail.target;
    if (source && source.hasAttribute("data-dismiss") && slot && slot.hasAttribute("data-refill")) {
      returnFocus(slot);
    }
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

  // "展开" on a clamped list row. The button is hidden until this script runs:
  // without it the row links to the full text.
  function armExpanders(root) {
    root.querySelectorAll("[data-expand][hidden]").forEach(function (button) {
      button.hidden = false;
    });
  }
  document.addEventListener("DOMContentLoaded", function () { armExpanders(document); });
  document.addEventListener("htmx:afterSettle", function (event) { armExpanders(event.detail.elt || document); });
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-expand]");
    if (!button) return;
    var text = document.getElementById(button.getAttribute("data-expand"));
    if (!text) return;
    var open = text.classList.toggle("is-expanded");
    button.setAttribute("aria-expanded", open ? "true" : "false");
    button.textContent = button.getAttribute(open ? "data-label-less" : "data-label-more");
  });

  // The filters folded behind "筛选" on a phone stay open on a wide screen, where they fit
  // beside the search box; without this script the "筛选" toggle opens them.
  var wide = window.matchMedia("(min-width: 721px)");
  function unfold() {
    document.querySelectorAll("details[data-open-wide]").forEach(function (details) {
      details.classList.toggle("is-wide", wide.matches);
      if (wide.matches) details.open = true;
    });
  }
  document.addEventListener("DOMContentLoaded", unfold);
  wide.addEventListener("change", unfold);
})();
