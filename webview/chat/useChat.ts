/** The page's models (models/app.ts), handed to every component through one Preact context. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ChatApp } from './models/app';

export const ChatContext = createContext<ChatApp | undefined>(undefined);

export function useChat(): ChatApp {
  const app = useContext(ChatContext);
  if (!app) throw new Error('useChat outside ChatContext');
  return app;
}
