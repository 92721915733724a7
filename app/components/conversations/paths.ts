export const CONVERSATIONS_PATH = '/conversations'
export const conversationPath = (id: string) => `${CONVERSATIONS_PATH}/${id}`
export const SAVED_REPLIES_PATH = '/saved-replies'
export const INBOX_SETTINGS_PATH = '/inbox-settings'
