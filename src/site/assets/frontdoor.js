// The embed: <frontdoor-search> and <frontdoor-form kind="demo|suggestion"> for any page, with
// frontdoor.css beside it. Everything is asked of the Frontdoor that served this script (its own
// URL says where), so the page may live on another origin (listed in CORS_ORIGINS for the forms).
// No inline script or style: it works under a strict Content-Security-Policy that allows this
// origin in script-src, style-src and connect-src. The search and the forms are the site's own
// (live-search.js, form-enhance.js); the form markup is rendered by the server (/embed/forms/…).
import { enhance } from './form-enhance.js';
import { setUpLiveBox } from './live-search.js';
import { say, useWords } from './words.js';

const FRONTDOOR = new URL('/', import.meta.url);

// The words of the host page's language (English when this Frontdoor has none for it).
if (!document.getElementById('frontdoor-words')) {
  const address = new URL('embed/words.json', FRONTDOOR);
  address.searchParams.set('lang', document.documentElement.lang || 'en');
  try {
    const response = await fetch(address);
    if (response.ok) useWords(await response.json());
  } catch {
    // Unreachable: so are /ask and the forms.
  }
}
const FORM_KINDS = ['demo', 'suggestion'];
let instances = 0;

function element(tag, properties = {}) {
  return Object.assign(document.createElement(tag), properties);
}

/** <frontdoor-search label="…" placeholder="…" results-page="/search?q=">: as-you-type results. */
class FrontdoorSearch extends HTMLElement {
  connectedCallback() {
    if (this.querySelector('form')) return;
    const id = `frontdoor-search-${++instances}`;
    const form = element('form', { className: 'frontdoor-search-form', noValidate: true });
    form.setAttribute('role', 'search');
    const labelText = this.getAttribute('label') || say('searchThisSite');
    form.setAttribute('aria-label', labelText);
    const label = element('label', { className: 'frontdoor-visually-hidden', textContent: labelText });
    label.htmlFor = `${id}-input`;
    const input = element('input', {
      id: `${id}-input`,
      className: 'frontdoor-search-input',
      type: 'search',
      name: 'q',
      placeholder: this.getAttribute('placeholder') || say('searchPlaceholder'),
      autocomplete: 'off',
      spellcheck: false,
      maxLength: 1000,
    });
    const button = element('button', {
      className: 'frontdoor-search-submit',
      type: 'submit',
      textContent: say('search'),
    });
    const panel = element('div', { id: `${id}-results`, className: 'frontdoor-results', hidden: true });
    panel.setAttribute('data-live-results', '');
    form.append(label, input, button, panel);
    this.replaceChildren(form);
    const page = this.getAttribute('results-page');
    const box = setUpLiveBox(form, {
      askUrl: new URL('ask', FRONTDOOR).href,
      allResults: page ? (query) => `${page}${encodeURIComponent(query)}` : null,
    });
    // Enter searches at once, here: the host site may have no results page of its own.
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const query = input.value.trim();
      if (query !== '' && box) box.run(query);
    });
  }
}

/** <frontdoor-form kind="demo"> or kind="suggestion": the site's form, posting to the API. */
class FrontdoorForm extends HTMLElement {
  async connectedCallback() {
    if (this.hasAttribute('data-loaded')) return;
    this.setAttribute('data-loaded', '');
    const kind = this.getAttribute('kind');
    const status = element('p', { className: 'frontdoor-form-status' });
    status.setAttribute('role', 'status');
    if (!FORM_KINDS.includes(kind)) {
      status.textContent = `Unknown form kind “${kind}”: use ${FORM_KINDS.join(' or ')}.`;
      this.replaceChildren(status);
      return;
    }
    status.textContent = say('formLoading');
    this.replaceChildren(status);
    // The page the form sits on is recorded as its sourcePage when the contract allows it.
    const address = new URL(`embed/forms/${kind}`, FRONTDOOR);
    address.searchParams.set('page', location.pathname);
    address.searchParams.set('lang', document.documentElement.lang || 'en');
    let html = null;
    try {
      const response = await fetch(address, { headers: { accept: 'text/html' } });
      if (response.ok) html = await response.text();
    } catch {
      html = null;
    }
    if (html === null) {
      status.textContent = say('formNotLoaded');
      return;
    }
    // The server's markup (no script, no inline style), from the origin this script came from.
    const template = document.createElement('template');
    template.innerHTML = html;
    this.replaceChildren(template.content);
    const form = this.querySelector('form[data-enhance-form]');
    if (form) enhance(form, { base: FRONTDOOR.href });
  }
}

if (!customElements.get('frontdoor-search')) customElements.define('frontdoor-search', FrontdoorSearch);
if (!customElements.get('frontdoor-form')) customElements.define('frontdoor-form', FrontdoorForm);
