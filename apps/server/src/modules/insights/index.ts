export { forgetReleasesOf } from './released-questions.js';
