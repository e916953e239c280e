/** Imported first by main.tsx: start-up work begins before the rest of the console is evaluated. */
import { startBoot } from './boot';

startBoot(window.location.pathname);
