/// One decoded sentence, tagged with the talker that sent it.
public struct Sentence: Equatable, Sendable {
    public var talker: Talker
    public var body: Body

    /// The decoded content, one case per supported sentence type.
    public enum Body: Equatable, Sendable {
        case gga(GGA)
        case rmc(RMC)
        case gll(GLL)
        case gns(GNS)
        case vtg(VTG)
        case gsa(GSA)
        case gsv(GSV)
        case gst(GST)
        case zda(ZDA)
        case txt(TXT)
    }
}
