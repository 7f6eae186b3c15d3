/**
 * Version of the forensic inspection engine. A stored warrant carries it and `/health` reports it, so a
 * warrant says which engine made it; raise it whenever a signal, a severity or the band rule changes.
 */
export const INSPECTION_VERSION = 'warrants-2026.12.3';
