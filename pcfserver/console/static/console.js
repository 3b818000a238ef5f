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

// htmx sends the page's CSRF token in the ibm-mq-csrf-token header (hx-headers on <body>); forms carry it as a field.
export {};
