// The named rights live below the modules (core/accounts/rights.ts) so that auth and users
// both import them downward; this path stays for the routes and listeners that name rights.
export { RIGHTS, INCIDENT_ACTION_RIGHTS, isRight, type Right } from '../../core/accounts/rights.js';
