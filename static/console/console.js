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

  // The sticky top bar's height as --topbar-h: what a scrolled-to list top and the sticky bulk
  // bar sit below (it wraps to two lines on a phone).
  function measureTopbar() {
    var bar = document.querySelector(".topbar");
    if (bar) document.documentElement.style.setProperty("--topbar-h", bar.offsetHeight + "px");
  }
  document.addEventListener("DOMContentLoaded", measureTopbar);
  window.addEventListener("resize", measureTopbar);

  // The bulk bar: "已选 N 条", select this page, then everything the filter matches; its
  // buttons wait for a selection. Without this script all of it is plain form controls.
  function bulkState(bar) {
    var rows = Array.prototype.slice.call(document.querySelectorAll("#results .row-select"));
    var ticked = rows.filter(function (box) { return box.checked; }).length;
    var all = bar.querySelector("[data-all-matching]");
    var matching = all && all.value === "1";
    var count = matching ? Number(bar.getAttribute("data-total")) : ticked;
    var label = bar.querySelector("[data-selected-count]");
    if (label) label.textContent = label.getAttribute("data-template").replace("0", String(count));
    bar.querySelectorAll("[data-needs-selection]").forEach(function (button) {
      button.disabled = count === 0;
    });
    var page = bar.querySelector("[data-select-page]");
    if (page) {
      page.checked = rows.length > 0 && ticked === rows.length;
      page.indeterminate = ticked > 0 && ticked < rows.length;
    }
    var more = bar.querySelector("[data-select-matching]");
    if (more) more.hidden = !(rows.length && ticked === rows.length) || matching;
  }
  function armBulk(root) {
    (root.querySelectorAll ? root : document).querySelectorAll("[data-bulk-bar]").forEach(function (bar) {
      bar.querySelectorAll("[data-needs-script]").forEach(function (el) { el.hidden = false; });
      var label = bar.querySelector("[data-selected-count]");
      if (label && !label.hasAttribute("data-template")) label.setAttribute("data-template", label.textContent);
      bulkState(bar);
    });
  }
  document.addEventListener("DOMContentLoaded", function () { armBulk(document); });
  document.addEventListener("htmx:afterSettle", function () { armBulk(document); });
  document.addEventListener("change", function (event) {
    var bar = document.querySelector("[data-bulk-bar]");
    if (!bar) return;
    var all = bar.querySelector("[data-all-matching]");
    if (event.target.matches("[data-select-page]")) {
      document.querySelectorAll("#results .row-select").forEach(function (box) {
        box.checked = event.target.checked;
      });
      if (all) all.value = "";
    } else if (event.target.matches("#results .row-select")) {
      if (all) all.value = "";
    } else {
      return;
    }
    bulkState(bar);
  });
  document.addEventListener("click", function (event) {
    var more = event.target.closest("[data-select-matching]");
    if (!more) return;
    var bar = more.closest("[data-bulk-bar]");
    bar.querySelector("[data-all-matching]").value = "1";
    bulkState(bar);
  });
})();
