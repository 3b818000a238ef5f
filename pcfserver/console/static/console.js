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
  try {
    await navigator.clipboard.writeText(text.textContent);
    button.dataset.copied = "true";
  } catch (error) {
    const range = document.createRange();
    range.selectNodeContents(text);
    window.getSelection().removeAllRanges();
    window.getSelection().addRange(range);
  }
});

// htmx sends the page's CSRF token in the ibm-mq-csrf-token header (hx-headers on <body>); forms carry it as a field.
export {};
