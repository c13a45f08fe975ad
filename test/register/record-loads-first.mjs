// Preloaded before register: records every module URL the process resolves to LOADS_FILE.
import { register } from 'node:module';

register('../disabled/record-loads.mjs', import.meta.url);
