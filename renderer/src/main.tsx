import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('root')!).render(<p>Campaign Desk</p>);
document.documentElement.dataset.appState = 'ready';
