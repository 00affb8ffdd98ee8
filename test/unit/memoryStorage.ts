export { MemoryStorage } from '../../src/chat/core/store';
