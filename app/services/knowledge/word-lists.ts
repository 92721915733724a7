import deChat from './words/de-chat.json'
import deService from './words/de-service.json'
import enChat from './words/en-chat.json'
import enService from './words/en-service.json'
import enShop from './words/en-shop.json'
import esChat from './words/es-chat.json'
import esService from './words/es-service.json'
import frChat from './words/fr-chat.json'
import frService from './words/fr-service.json'
import itChat from './words/it-chat.json'
import itService from './words/it-service.json'
import ptChat from './words/pt-chat.json'
import ptService from './words/pt-service.json'
import ruChat from './words/ru-chat.json'
import ruService from './words/ru-service.json'
import smallTalk from './words/small-talk.json'

// The knowledge search's built-in word lists (words/README.md says what each file is for). Every language's lists
// are read for every question: a question's language is not known before it is searched, and a word of another
// language that a question does not use costs nothing.

/** Groups of words customers and businesses use for the same thing, "|" between a group's entries. */
export const SERVICE_GROUPS = [
  enShop,
  enService,
  esService,
  ptService,
  deService,
  ruService,
  frService,
  itService,
]
  .flat()
  .map((line) => line.split('|'))

/** Words that carry no topic in a question: greetings, thanks, fillers, forms of address, chat abbreviations. */
export const CHAT_WORDS = [enChat, esChat, ptChat, deChat, ruChat, frChat, itChat].flat()

/** Words that make a message small talk when it holds nothing else ("good morning", "bye"), besides CHAT_WORDS. */
export const SMALL_TALK_WORDS = smallTalk
