// zod compiles a fast parser for object schemas with `new Function`, and probes whether it may as
// each object schema is built. The CSP (script-src 'self', no 'unsafe-eval') refuses that probe and
// reports a violation on every page load; jitless parsing never probes. Imported first in main.tsx,
// before any schema exists.
import { z } from 'zod';

z.config({ jitless: true });
