import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import './app/global.css';
import { restoreLanguage } from './i18n';

const root = document.getElementById('root');
if (root) {
  void restoreLanguage().finally(() =>
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
}
