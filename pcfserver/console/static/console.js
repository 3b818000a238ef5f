// pcfserver console: the few behaviours a page needs beyond htmx. No inline script anywhere (the CSP forbids it):
// elements ask for behaviour with data- attributes.

// <button data-confirm="Clear every message of Q1?"> asks before its form is sent.
document.addEventListener("submit", (event) => {
  const button = event.submitter;
  const text = (button && button.dataset.confirm) || event.target.dataset.confirm;
  if (text && !window.confirm(text)) {
    event.preventDefault();
  }
});

// <textarea data-submit-keys>: Ctrl+Enter (or Cmd+Enter) sends its form.
document.addEventListener("keydown", (event) => {
  const box = event.target;
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && box instanceof HTMLTextAreaElement && "submitKeys" in box.dataset && box.form) {
    event.preventDefault();
    box.form.requestSubmit();
  }
});

// <button data-pause="ID" aria-pressed="false"> pauses and resumes the htmx polling of element ID (a live tail):
// while paused, every request that element would make is cancelled before it is sent.
document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-pause]");
  if (!button) {
    return;
  }
  const target = document.getElementById(button.dataset.pause);
  if (!target) {
    return;
  }
  const paused = button.getAttribute("aria-pressed") !== "true";
  button.setAttribute("aria-pressed", paused ? "true" : "false");
  button.textContent = paused ? "Resume" : "Pause";
  target.toggleAttribute("data-paused", paused);
});
document.addEventListener("htmx:beforeRequest", (event) => {
  const source = event.detail && event.detail.elt;
  if (source && source.closest && source.closest("[data-paused]")) {
    event.preventDefault();
  }
});

// <button data-copy="ROW-ID"> copies the text of that row's <pre class="revert"> (the history's revert MQSC).
document.addEventListener("click", async (event) => {
  const button = event.target.closest && event.target.closest("button[data-copy]");
  if (!button) {
    return;
  }
  const row = document.getElementById(button.dataset.copy);
  const text = row && row.querySelector("pre.revert");
  if (!text) {
    return;
  }
  const said = row.querySelector(".copied");
  try {
    await navigator.clipboard.writeText(text.textContent);
    button.dataset.copied = "true";
    if (said) {
      said.textContent = "Copied.";
      setTimeout(() => { said.textContent = ""; }, 4000);
    }
  } catch (error) {
    // no clipboard (plain HTTP, or refused): the text is selected for Ctrl+C instead, and the page says so
    const range = document.createRange();
    range.selectNodeContents(text);
    window.getSelection().removeAllRanges();
    window.getSelection().addRange(range);
    if (said) {
      said.textContent = "Selected: press Ctrl+C to copy.";
    }
  }
});

// <select data-sets="ID"> whose <option data-usual="WORD">: choosing that option also chooses WORD in select ID (the
// "Why was this refused?" form: a queue starts from PUT, the queue manager from CONNECT, a topic from PUB); the options
// of select ID with a data-types list show only for the types it names (a topic's operations for a topic).
function offerFor(select) {
  const target = document.getElementById(select.dataset.sets);
  if (!(target instanceof HTMLSelectElement)) {
    return null;
  }
  for (const option of target.options) {
    const types = option.dataset.types;
    option.hidden = Boolean(types) && !types.split(" ").includes(select.value);
  }
  return target;
}

document.addEventListener("change", (event) => {
  const select = event.target;
  if (!(select instanceof HTMLSelectElement) || !select.dataset.sets) {
    return;
  }
  const option = select.selectedOptions[0];
  const target = offerFor(select);
  if (option && option.dataset.usual && target) {
    target.value = option.dataset.usual;
  }
});

for (const select of document.querySelectorAll("select[data-sets]")) {
  offerFor(select);
}

// <select data-type-of="FORM">: the type chosen is the type FORM creates (its hidden "type" field follows the list, so
// choosing SVRCONN and pressing Create never makes the type shown before); a note says the fields below are still the
// other type's until "Show the fields of this type" is pressed, which carries the name typed so far.
document.addEventListener("change", (event) => {
  const select = event.target;
  if (!(select instanceof HTMLSelectElement) || !select.dataset.typeOf) {
    return;
  }
  const form = document.getElementById(select.dataset.typeOf);
  const field = form && form.querySelector('input[name="type"]');
  if (field instanceof HTMLInputElement) {
    field.value = select.value;
  }
  const note = document.getElementById("type-note");
  if (note) {
    note.hidden = select.value === select.dataset.shown;
    note.textContent = `Create makes a ${select.value} channel; the fields below are ${select.dataset.shown}'s until you press "Show the fields of this type".`;
  }
});
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || form.id !== "choose-type") {
    return;
  }
  const typed = document.getElementById("f-name");
  const carried = form.querySelector('input[name="name"]');
  if (typed instanceof HTMLInputElement && carried instanceof HTMLInputElement) {
    carried.value = typed.value;
  }
});

// A page that answers with an error or a result moves the focus there, so that a screen reader reads it and the
// keyboard starts from it (role=alert alone is not announced reliably on a page just loaded).
document.addEventListener("DOMContentLoaded", () => {
  const message = document.querySelector("#form-errors, #mqsc-problem, #login-error, #put-error, .ran[role], main [role=alert]");
  if (message instanceof HTMLElement) {
    message.tabIndex = -1;
    message.focus();
  }
});

// htmx sends the page's CSRF token in the ibm-mq-csrf-token header (hx-headers on <body>); forms carry it as a field.
export {};
