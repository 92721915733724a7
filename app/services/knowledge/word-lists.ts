import deChat from './words/de-chat.json'
import deCommon from './words/de-common.json'
import deService from './words/de-service.json'
import enChat from './words/en-chat.json'
import enCommon from './words/en-common.json'
import enService from './words/en-service.json'
import enShop from './words/en-shop.json'
import esChat from './words/es-chat.json'
import esCommon from './words/es-common.json'
import esService from './words/es-service.json'
import frChat from './words/fr-chat.json'
import frCommon from './words/fr-common.json'
import frService from './words/fr-service.json'
import itChat from './words/it-chat.json'
import itCommon from './words/it-common.json'
import itService from './words/it-service.json'
import ptChat from './words/pt-chat.json'
import ptCommon from './words/pt-common.json'
import ptService from './words/pt-service.json'
import ruChat from './words/ru-chat.json'
import ruCommon from './words/ru-common.json'
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

/**
 * Words that carry little of a question's topic though they are not chat: auxiliary and modal verbs, the most general
 * verbs (do, get, go, want, need), time words (today, now, still), quantifiers and intensifiers. They stay in a
 * question's words, but weigh little in its relevance (docs/decisions/075).
 */
export const COMMON_WORDS = [enCommon, esCommon, ptCommon, deCommon, ruCommon, frCommon, itCommon].flat()

/** Words that make a message small talk when it holds nothing else ("good morning", "bye"), besides CHAT_WORDS. */
export const SMALL_TALK_WORDS = smallTalk
