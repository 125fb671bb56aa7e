/** Operator-facing texts about the link between this page and the back end. */
export const REFUSED_MESSAGE =
  "Campaign Desk refused this page's access token. Open the address printed by `npm start` (or `npm run web`) again.";
export const LOST_MESSAGE =
  "The connection to Campaign Desk's back end was lost before it answered. Check that it is still running, then try again.";
export const UNREACHABLE_MESSAGE =
  "Campaign Desk's back end is not reachable. Check that `npm start` (or `npm run web`) is still running.";
