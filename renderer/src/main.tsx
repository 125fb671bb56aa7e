import './zodNoEval.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { StartupGate } from './app/StartupGate.tsx';
import { installDesk } from './desk/installDesk.ts';
import './styles/fonts.css';
import './styles/theme.css';
import './styles/app.css';

document.documentElement.dataset.appState = 'loading';
installDesk();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <StartupGate>
      <App />
    </StartupGate>
  </StrictMode>,
);
