import { AGENT_KNOWLEDGE_DEFAULTS } from '~/lib/knowledge/knowledge'
import { BEHAVIOUR_TEXTS } from './behaviour'

// The agent's built-in messages in the customer's language (issue 36, docs/decisions/071): the defaults ship in
// the ten languages most of the businesses on WhatsApp and Telegram write; an owner's own words are theirs.

/** The messages an agent sends of its own: handing over, the fallback, "text only", out of hours, "don't know". */
export const BUILT_IN_TEXT_KINDS = [
  'handoff',
  'fallback',
  'unreadable',
  'out-of-hours',
  'no-knowledge',
] as const
export type BuiltInTextKind = (typeof BUILT_IN_TEXT_KINDS)[number]

type Texts = Record<BuiltInTextKind, string>

/** The languages the built-in messages ship in (ISO 639-1), and so the ones an agent can be fixed to. */
export const BUILT_IN_LANGUAGES = ['en', 'es', 'pt', 'fr', 'de', 'it', 'ru', 'uk', 'tr', 'id'] as const
export type BuiltInLanguage = (typeof BUILT_IN_LANGUAGES)[number]
export const isBuiltInLanguage = (language: string): language is BuiltInLanguage =>
  (BUILT_IN_LANGUAGES as readonly string[]).includes(language)

const ENGLISH: Texts = {
  handoff: BEHAVIOUR_TEXTS.handoffMessage,
  fallback: BEHAVIOUR_TEXTS.fallbackMessage,
  unreadable: BEHAVIOUR_TEXTS.unreadableMessage,
  'out-of-hours': BEHAVIOUR_TEXTS.outOfHoursMessage,
  'no-knowledge': AGENT_KNOWLEDGE_DEFAULTS.knowledgeNoAnswerMessage,
}

/** The defaults by language (ISO 639-1). */
export const BUILT_IN_TEXTS: Record<BuiltInLanguage, Texts> = {
  en: ENGLISH,
  es: {
    handoff: 'Te paso con una persona de nuestro equipo. Te responderá aquí lo antes posible.',
    fallback: 'Lo siento, ahora mismo no puedo responder; una persona se pondrá en contacto contigo.',
    unreadable: 'Por ahora solo puedo leer mensajes de texto',
    'out-of-hours':
      '¡Gracias por tu mensaje! Ahora mismo estamos cerrados; una persona te responderá cuando abramos.',
    'no-knowledge':
      'No tengo esa información, así que he pedido ayuda a una persona de nuestro equipo. Te responderá aquí pronto.',
  },
  pt: {
    handoff: 'Vou transferir você para uma pessoa da nossa equipe. Ela vai responder aqui assim que puder.',
    fallback: 'Desculpe, não consigo responder agora — uma pessoa vai entrar em contato com você.',
    unreadable: 'Por enquanto só consigo ler mensagens de texto',
    'out-of-hours':
      'Obrigado pela mensagem! Estamos fechados agora; uma pessoa vai responder quando abrirmos.',
    'no-knowledge':
      'Não tenho essa informação, então pedi ajuda a uma pessoa da nossa equipe. Ela vai responder aqui em breve.',
  },
  fr: {
    handoff:
      'Je vous mets en relation avec une personne de notre équipe. Elle vous répondra ici dès que possible.',
    fallback: 'Désolé, je ne peux pas répondre pour le moment — une personne reviendra vers vous.',
    unreadable: 'Pour l’instant, je ne peux lire que les messages texte',
    'out-of-hours':
      'Merci pour votre message ! Nous sommes fermés pour le moment ; une personne vous répondra dès notre ouverture.',
    'no-knowledge':
      'Je n’ai pas cette information, j’ai donc demandé à une personne de notre équipe de vous aider. Elle vous répondra ici bientôt.',
  },
  de: {
    handoff:
      'Ich verbinde Sie mit einer Person aus unserem Team. Sie antwortet Ihnen hier so bald wie möglich.',
    fallback: 'Entschuldigung, ich kann gerade nicht antworten – eine Person meldet sich bei Ihnen.',
    unreadable: 'Ich kann im Moment nur Textnachrichten lesen',
    'out-of-hours':
      'Danke für Ihre Nachricht! Wir haben gerade geschlossen; eine Person meldet sich, sobald wir geöffnet haben.',
    'no-knowledge':
      'Diese Information habe ich nicht, deshalb habe ich eine Person aus unserem Team um Hilfe gebeten. Sie antwortet Ihnen hier bald.',
  },
  it: {
    handoff: 'Ti passo a una persona del nostro team. Ti risponderà qui il prima possibile.',
    fallback: 'Mi dispiace, in questo momento non posso rispondere: una persona ti ricontatterà.',
    unreadable: 'Per ora posso leggere solo messaggi di testo',
    'out-of-hours':
      'Grazie per il tuo messaggio! Al momento siamo chiusi; una persona ti risponderà quando apriamo.',
    'no-knowledge':
      'Non ho questa informazione, quindi ho chiesto aiuto a una persona del nostro team. Ti risponderà qui a breve.',
  },
  ru: {
    handoff: 'Передаю вас сотруднику нашей команды. Он ответит вам здесь, как только сможет.',
    fallback: 'Извините, сейчас я не могу ответить — с вами свяжется сотрудник.',
    unreadable: 'Пока я умею читать только текстовые сообщения',
    'out-of-hours': 'Спасибо за сообщение! Сейчас мы закрыты; сотрудник ответит вам, когда мы откроемся.',
    'no-knowledge':
      'У меня нет этой информации, поэтому я попросил помочь сотрудника нашей команды. Он скоро ответит вам здесь.',
  },
  uk: {
    handoff: 'Передаю вас співробітнику нашої команди. Він відповість вам тут, щойно зможе.',
    fallback: 'Вибачте, зараз я не можу відповісти — з вами зв’яжеться співробітник.',
    unreadable: 'Поки що я можу читати лише текстові повідомлення',
    'out-of-hours':
      'Дякуємо за повідомлення! Зараз ми зачинені; співробітник відповість вам, коли ми відкриємося.',
    'no-knowledge':
      'У мене немає цієї інформації, тому я попросив допомогти співробітника нашої команди. Він незабаром відповість вам тут.',
  },
  tr: {
    handoff: 'Sizi ekibimizden birine aktarıyorum. En kısa sürede size buradan yanıt verecek.',
    fallback: 'Üzgünüm, şu anda yanıt veremiyorum — ekibimizden biri size dönüş yapacak.',
    unreadable: 'Şimdilik yalnızca metin mesajlarını okuyabiliyorum',
    'out-of-hours':
      'Mesajınız için teşekkürler! Şu anda kapalıyız; açıldığımızda ekibimizden biri size yanıt verecek.',
    'no-knowledge':
      'Bu bilgiye sahip değilim, bu yüzden ekibimizden birinden yardım istedim. Yakında size buradan yanıt verecek.',
  },
  id: {
    handoff: 'Saya akan menghubungkan Anda dengan anggota tim kami. Mereka akan membalas di sini secepatnya.',
    fallback: 'Maaf, saya tidak bisa menjawab sekarang — anggota tim kami akan menghubungi Anda.',
    unreadable: 'Untuk saat ini saya hanya bisa membaca pesan teks',
    'out-of-hours':
      'Terima kasih atas pesan Anda! Kami sedang tutup; anggota tim kami akan membalas saat kami buka.',
    'no-knowledge':
      'Saya tidak punya informasi itu, jadi saya sudah meminta bantuan anggota tim kami. Mereka akan segera membalas di sini.',
  },
}

/** What the agent form says of the messages below it. */
export const BUILT_IN_TEXTS_HINT =
  'Customers who write in Spanish, Portuguese, French, German, Italian, Russian, Ukrainian, Turkish or Indonesian get the suggested messages below in their language. Messages you write yourself are sent as you write them, unless you translate them under Language below.'

/** An owner's own words per language and message: `{ es: { handoff: '...' } }` (stored on the agent). */
export type TextTranslations = Partial<Record<BuiltInLanguage, Partial<Record<BuiltInTextKind, string>>>>

/** What decides an agent's language: fixed to one (null: the customer's) and the owner's own translations. */
export type AgentLanguage = { replyLanguage: string | null; translations: TextTranslations }

/** Languages read as another's texts: Malay customers read Indonesian, and detection often names one for the other. */
const SAME_TEXTS: Record<string, BuiltInLanguage> = { ms: 'id' }

/** The language an agent's messages go out in: the one it is fixed to, else the customer's (null: unknown). */
export function targetLanguage(agent: AgentLanguage, customerLanguage: string | null | undefined) {
  const language = agent.replyLanguage ?? customerLanguage
  if (!language) return null
  return SAME_TEXTS[language] ?? (isBuiltInLanguage(language) ? language : null)
}

/** What a customer in `language` gets with no translation of the owner's: the default in it, or the agent's text. */
function untranslated(kind: BuiltInTextKind, text: string, language: BuiltInLanguage | null): string {
  if (!language || text.trim() !== ENGLISH[kind]) return text
  return BUILT_IN_TEXTS[language][kind]
}

/**
 * One of the agent's built-in messages (`text`: the agent's own, in its settings) for a customer in `language`:
 * the owner's translation when they wrote one; else the default in that language while the agent keeps the
 * (English) default; else the agent's text as it is. An emptied message stays unsent in every language: the owner
 * switched it off.
 */
export function textInLanguage(
  kind: BuiltInTextKind,
  text: string,
  translations: TextTranslations,
  language: BuiltInLanguage | null,
): string {
  if (!text.trim()) return text
  const own = language ? translations[language]?.[kind]?.trim() : undefined
  return own || untranslated(kind, text, language)
}

/** What the customer gets for one of the agent's built-in messages: textInLanguage in the agent's target language. */
export function builtInTextFor(
  kind: BuiltInTextKind,
  text: string,
  agent: AgentLanguage,
  customerLanguage: string | null | undefined,
): string {
  return textInLanguage(kind, text, agent.translations, targetLanguage(agent, customerLanguage))
}
