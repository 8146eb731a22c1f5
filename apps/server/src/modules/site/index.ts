/**
 * What other module areas use of this one. They import it from here only, so that this area's own files can change
 * without touching them.
 */
export {
  activityByDay,
  addActivity,
  countActivity,
  countActivityOf,
  uncountActivity,
  utcDay,
  type ActivityByDay,
} from './activity.js';
