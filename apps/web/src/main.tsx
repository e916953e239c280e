// First: the boot calls and the current page's chunks start while the rest is evaluated (app/boot.ts).
import './app/bootNow';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n';
import { App } from './app/App';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
