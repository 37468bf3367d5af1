// The site's own demo request and document suggestion forms, enhanced (form-enhance.js, shared
// with the embeddable <frontdoor-form>). Without this script the same forms post to the site's
// HTML routes.
import { enhance } from './form-enhance.js';

for (const form of document.querySelectorAll('form[data-enhance-form]')) enhance(form);
